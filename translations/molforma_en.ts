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
<context>
    <name>MoleculeTab</name>
    <message>
        <source>%1 is not a metal: ligand %2 normally binds to a metal. Cancel the candidate and click the metal, or choose it under "Place on".</source>
        <translation>%1 is not a metal: ligand %2 normally binds to a metal. Cancel the candidate and click the metal, or choose it under "Place on".</translation>
    </message>
    <message>
        <source>Placing %1 gives %2 an impossible valence (ringed red). Cancel the candidate to undo it.</source>
        <translation>Placing %1 gives %2 an impossible valence (ringed red). Cancel the candidate to undo it.</translation>
    </message>
    <message>
        <source>Place on:</source>
        <translation>Place on:</translation>
    </message>
    <message>
        <source>The metal to place the chosen ligand on, also when its ligands hide it in the view</source>
        <translation>The metal to place the chosen ligand on, also when its ligands hide it in the view</translation>
    </message>
    <message>
        <source>Place</source>
        <translation>Place</translation>
    </message>
    <message>
        <source>Place the chosen fragment or ligand on this metal</source>
        <translation>Place the chosen fragment or ligand on this metal</translation>
    </message>
</context>
</TS>
