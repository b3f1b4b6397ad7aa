<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en_GB">
<context>
    <name>CalculationPanel</name>
    <message numerus="yes">
        <source>… and %n more warning(s).</source>
        <translation>
            <numerusform>… and %n more warning.</numerusform>
            <numerusform>… and %n more warnings.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>HistoryPanel</name>
    <message numerus="yes">
        <source>Scanning… %n folder(s)</source>
        <translation>
            <numerusform>Scanning… %n folder</numerusform>
            <numerusform>Scanning… %n folders</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n job(s) in %1</source>
        <translation>
            <numerusform>%n job in %1</numerusform>
            <numerusform>%n jobs in %1</numerusform>
        </translation>
    </message>
</context>
</TS>
