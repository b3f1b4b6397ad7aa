<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en_US">
<context>
    <name>MainWindow</name>
    <message numerus="yes">
        <source>%1 — %n atom(s)</source>
        <translation>
            <numerusform>%1 — %n atom</numerusform>
            <numerusform>%1 — %n atoms</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>PropertyPanel</name>
    <message numerus="yes">
        <source>%n selected atoms</source>
        <translation>
            <numerusform>%n selected atom</numerusform>
            <numerusform>%n selected atoms</numerusform>
        </translation>
    </message>
</context>
</TS>
