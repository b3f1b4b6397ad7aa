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
    <message>
        <source>Calculation results</source>
        <translation>Calculation results</translation>
    </message>
    <message>
        <source>Opening %1 in Results</source>
        <translation>Opening %1 in Results</translation>
    </message>
    <message>
        <source>Open &amp;Recent</source>
        <translation>Open &amp;Recent</translation>
    </message>
    <message>
        <source>Clear Recent Files</source>
        <translation>Clear Recent Files</translation>
    </message>
    <message>
        <source>%1 no longer exists.</source>
        <translation>%1 no longer exists.</translation>
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
<context>
    <name>StructureChoiceDialog</name>
    <message>
        <source>Record (of %1):</source>
        <translation>Record (of %1):</translation>
    </message>
</context>
<context>
    <name>QFileDialog</name>
    <message>
        <source>&amp;Look in:</source>
        <translation>&amp;Look in:</translation>
    </message>
    <message>
        <source>Files of &amp;type:</source>
        <translation>Files of &amp;type:</translation>
    </message>
</context>
</TS>
