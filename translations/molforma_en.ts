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
    <message numerus="yes">
        <source>%n calculation(s) still running here will be stopped (recorded as cancelled):</source>
        <translation>
            <numerusform>%n calculation still running here will be stopped (recorded as cancelled):</numerusform>
            <numerusform>%n calculations still running here will be stopped (recorded as cancelled):</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n batch job(s) on the cluster keep running; a later MolForma finds them again in History:</source>
        <translation>
            <numerusform>%n batch job on the cluster keeps running; a later MolForma finds it again in History:</numerusform>
            <numerusform>%n batch jobs on the cluster keep running; a later MolForma finds them again in History:</numerusform>
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
