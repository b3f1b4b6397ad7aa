<?xml version='1.0' encoding='utf-8'?>
<TS version="2.1" language="en_GB">
<context>
    <name>CalculationPanel</name>
    <message>
        <location filename="../molforma/gui/widgets/calculation_panel.py" line="43" />
        <source>Energy (single point)</source>
        <translation>Energy (single point)</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/calculation_panel.py" line="44" />
        <source>Geometry optimisation</source>
        <translation>Geometry optimisation</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/calculation_panel.py" line="45" />
        <source>Frequencies</source>
        <translation>Frequencies</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/calculation_panel.py" line="46" />
        <source>Optimisation + frequencies</source>
        <translation>Optimisation + frequencies</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/calculation_panel.py" line="49" />
        <source>SCF (Hartree–Fock)</source>
        <translation>SCF (Hartree–Fock)</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/calculation_panel.py" line="50" />
        <source>DFT</source>
        <translation>DFT</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/calculation_panel.py" line="51" />
        <source>MP2</source>
        <translation>MP2</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/calculation_panel.py" line="54" />
        <source>Memory (MB)</source>
        <translation>Memory (MB)</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/calculation_panel.py" line="55" />
        <source>Scratch directory</source>
        <translation>Scratch directory</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/calculation_panel.py" line="56" />
        <source>Permanent directory</source>
        <translation>Permanent directory</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/calculation_panel.py" line="57" />
        <source>Input MO vectors</source>
        <translation>Input MO vectors</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/calculation_panel.py" line="58" />
        <source>Output MO vectors</source>
        <translation>Output MO vectors</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/calculation_panel.py" line="59" />
        <source>SCF max iterations</source>
        <translation>SCF max iterations</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/calculation_panel.py" line="60" />
        <source>SCF convergence threshold</source>
        <translation>SCF convergence threshold</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/calculation_panel.py" line="61" />
        <source>DFT max iterations</source>
        <translation>DFT max iterations</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/calculation_panel.py" line="62" />
        <source>DFT energy convergence</source>
        <translation>DFT energy convergence</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/calculation_panel.py" line="63" />
        <source>DFT grid</source>
        <translation>DFT grid</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/calculation_panel.py" line="64" />
        <source>Dispersion correction</source>
        <translation>Dispersion correction</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/calculation_panel.py" line="65" />
        <source>No automatic symmetry</source>
        <translation>No automatic symmetry</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/calculation_panel.py" line="66" />
        <source>Keep my frame (no centring)</source>
        <translation>Keep my frame (no centring)</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/calculation_panel.py" line="67" />
        <source>Optimiser max steps</source>
        <translation>Optimiser max steps</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/calculation_panel.py" line="68" />
        <source>Write mode animation files</source>
        <translation>Write mode animation files</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/calculation_panel.py" line="69" />
        <source>Print level</source>
        <translation>Print level</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/calculation_panel.py" line="71" />
        <source>(NWChem default)</source>
        <translation>(NWChem default)</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/calculation_panel.py" line="181" />
        <source>Conditions</source>
        <translation>Conditions</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/calculation_panel.py" line="209" />
        <source>Automatic (from multiplicity)</source>
        <translation>Automatic (from multiplicity)</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/calculation_panel.py" line="221" />
        <source>Task:</source>
        <translation>Task:</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/calculation_panel.py" line="223" />
        <source>Theory:</source>
        <translation>Theory:</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/calculation_panel.py" line="225" />
        <source>Functional:</source>
        <translation>Functional:</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/calculation_panel.py" line="227" />
        <source>Basis set:</source>
        <translation>Basis set:</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/calculation_panel.py" line="229" />
        <source>SCF reference:</source>
        <translation>SCF reference:</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/calculation_panel.py" line="231" />
        <source>Charge:</source>
        <translation>Charge:</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/calculation_panel.py" line="233" />
        <source>Multiplicity:</source>
        <translation>Multiplicity:</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/calculation_panel.py" line="257" />
        <source>Advanced settings</source>
        <translation>Advanced settings</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/calculation_panel.py" line="276" />
        <source>Extra input (added to the input before the tasks)</source>
        <translation>Extra input (added to the input before the tasks)</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/calculation_panel.py" line="284" />
        <source>NWChem directives, e.g. a property block</source>
        <translation>NWChem directives, e.g. a property block</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/calculation_panel.py" line="290" />
        <source>Extra task lines, one per line, e.g. scf property</source>
        <translation>Extra task lines, one per line, e.g. scf property</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/calculation_panel.py" line="293" />
        <source>Apply extra input</source>
        <translation>Apply extra input</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/calculation_panel.py" line="298" />
        <source>Extra tasks:</source>
        <translation>Extra tasks:</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/calculation_panel.py" line="322" />
        <source>NWChem input (live preview):</source>
        <translation>NWChem input (live preview):</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/calculation_panel.py" line="422" />
        <source>Not a number: %1</source>
        <translation>Not a number: %1</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/calculation_panel.py" line="454" />
        <source>Not applied yet</source>
        <translation>Not applied yet</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/calculation_panel.py" line="499" />
        <source>The NWChem input generator is not available.</source>
        <translation>The NWChem input generator is not available.</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/calculation_panel.py" line="509" />
        <source>The input cannot be generated:</source>
        <translation>The input cannot be generated:</translation>
    </message>
    <message>
        <source>Spherical basis functions</source>
        <translation>Spherical basis functions</translation>
    </message>
    <message>
        <source>MP2 frozen core</source>
        <translation>MP2 frozen core</translation>
    </message>
    <message>
        <source>Partly checked: automatic (MolForma chooses what is safe for this molecule and basis set).</source>
        <translation>Partly checked: automatic (MolForma chooses what is safe for this molecule and basis set).</translation>
    </message>
    <message>
        <source>Not a whole number: %1</source>
        <translation>Not a whole number: %1</translation>
    </message>
    <message>
        <source>Not a number: %1 (write it like 1e-6 or 0.001, with a point)</source>
        <translation>Not a number: %1 (write it like 1e-6 or 0.001, with a point)</translation>
    </message>
    <message>
        <source>Write a MOLDEN file (orbitals)</source>
        <translation>Write a MOLDEN file (orbitals)</translation>
    </message>
</context>
<context>
    <name>EnergyPlot</name>
    <message>
        <location filename="../molforma/gui/widgets/plots.py" line="56" />
        <source>Step</source>
        <translation>Step</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/plots.py" line="57" />
        <source>Energy</source>
        <translation>Energy</translation>
    </message>
    <message>
        <source>No energies yet: they appear here step by step while a calculation runs or when results are opened.</source>
        <translation>No energies yet: they appear here step by step while a calculation runs or when results are opened.</translation>
    </message>
</context>
<context>
    <name>ExecutionPanel</name>
    <message>
        <location filename="../molforma/gui/widgets/execution_panel.py" line="276" />
        <source>NWChem output (live log):</source>
        <translation>NWChem output (live log):</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/execution_panel.py" line="171" />
        <source>Program</source>
        <translation>Program</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/execution_panel.py" line="175" />
        <location filename="../molforma/gui/widgets/execution_panel.py" line="179" />
        <location filename="../molforma/gui/widgets/execution_panel.py" line="235" />
        <location filename="../molforma/gui/widgets/execution_panel.py" line="239" />
        <source>Browse…</source>
        <translation>Browse…</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/execution_panel.py" line="180" />
        <source>NWChem executable:</source>
        <translation>NWChem executable:</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/execution_panel.py" line="182" />
        <source>MPI launcher:</source>
        <translation>MPI launcher:</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/execution_panel.py" line="187" />
        <source>Variable</source>
        <translation>Variable</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/execution_panel.py" line="187" />
        <source>Value</source>
        <translation>Value</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/execution_panel.py" line="192" />
        <source>Add</source>
        <translation>Add</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/execution_panel.py" line="193" />
        <source>Remove</source>
        <translation>Remove</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/execution_panel.py" line="201" />
        <source>Environment:</source>
        <translation>Environment:</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/execution_panel.py" line="205" />
        <source>Resources</source>
        <translation>Resources</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/execution_panel.py" line="220" />
        <source> s</source>
        <translation> s</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/execution_panel.py" line="221" />
        <source>No limit</source>
        <translation>No limit</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/execution_panel.py" line="223" />
        <source>MPI processes:</source>
        <translation>MPI processes:</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/execution_panel.py" line="225" />
        <source>Threads (OMP_NUM_THREADS):</source>
        <translation>Threads (OMP_NUM_THREADS):</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/execution_panel.py" line="227" />
        <source>Time limit:</source>
        <translation>Time limit:</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/execution_panel.py" line="231" />
        <source>Folders</source>
        <translation>Folders</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/execution_panel.py" line="238" />
        <location filename="../molforma/gui/widgets/execution_panel.py" line="485" />
        <location filename="../molforma/gui/widgets/execution_panel.py" line="489" />
        <source>(none)</source>
        <translation>(none)</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/execution_panel.py" line="241" />
        <source>Job root:</source>
        <translation>Job root:</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/execution_panel.py" line="243" />
        <source>Reference directory:</source>
        <translation>Reference directory:</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/execution_panel.py" line="249" />
        <source>Run</source>
        <translation>Run</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/execution_panel.py" line="250" />
        <source>Stop</source>
        <translation>Stop</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/execution_panel.py" line="251" />
        <source>Save input set</source>
        <translation>Save input set</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/execution_panel.py" line="348" />
        <source>Give a command (for example nwchem).</source>
        <translation>Give a command (for example nwchem).</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/execution_panel.py" line="357" />
        <source>Give a folder for the jobs.</source>
        <translation>Give a folder for the jobs.</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/execution_panel.py" line="362" />
        <source>Choose a program</source>
        <translation>Choose a program</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/execution_panel.py" line="363" />
        <source>All files (*)</source>
        <translation>All files (*)</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/execution_panel.py" line="372" />
        <source>Choose a folder</source>
        <translation>Choose a folder</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/execution_panel.py" line="387" />
        <source>Not a valid variable name: %1</source>
        <translation>Not a valid variable name: %1</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/execution_panel.py" line="389" />
        <source>Variable given twice: %1</source>
        <translation>Variable given twice: %1</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/execution_panel.py" line="479" />
        <source>These settings can run any program. They were not set by you in this window (for example they come from a loaded project or a reused job).</source>
        <translation>These settings can run any program. They were not set by you in this window (for example they come from a loaded project or a reused job).</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/execution_panel.py" line="482" />
        <source>Executable: %1</source>
        <translation>Executable: %1</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/execution_panel.py" line="483" />
        <source>Launcher: %1</source>
        <translation>Launcher: %1</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/execution_panel.py" line="484" />
        <source>Environment: %1</source>
        <translation>Environment: %1</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/execution_panel.py" line="486" />
        <source>Extra input: %1</source>
        <translation>Extra input: %1</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/execution_panel.py" line="488" />
        <source>Extra tasks: %1</source>
        <translation>Extra tasks: %1</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/execution_panel.py" line="491" />
        <source>Run the calculation with these settings and trust them from now on?</source>
        <translation>Run the calculation with these settings and trust them from now on?</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/execution_panel.py" line="509" />
        <source>Confirm or cancel the candidate before running.</source>
        <translation>Confirm or cancel the candidate before running.</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/execution_panel.py" line="518" />
        <source>Cannot run:</source>
        <translation>Cannot run:</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/execution_panel.py" line="522" />
        <source>Yes</source>
        <translation>Yes</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/execution_panel.py" line="522" />
        <source>No</source>
        <translation>No</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/execution_panel.py" line="523" />
        <source>Run with these settings?</source>
        <translation>Run with these settings?</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/execution_panel.py" line="526" />
        <source>Not started: the settings were not confirmed.</source>
        <translation>Not started: the settings were not confirmed.</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/execution_panel.py" line="526" />
        <source>Not started: these execution settings were not chosen in this window, and only you can confirm them.</source>
        <translation>Not started: these execution settings were not chosen in this window, and only you can confirm them.</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/execution_panel.py" line="557" />
        <source>Not started: the project changed while the confirmation was open. Press Run again to review the settings as they are now.</source>
        <translation>Not started: the project changed while the confirmation was open. Press Run again to review the settings as they are now.</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/execution_panel.py" line="531" />
        <location filename="../molforma/gui/widgets/execution_panel.py" line="577" />
        <source>Running calculations is not available.</source>
        <translation>Running calculations is not available.</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/execution_panel.py" line="536" />
        <source>Could not start: %1</source>
        <translation>Could not start: %1</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/execution_panel.py" line="566" />
        <source>Could not stop: %1</source>
        <translation>Could not stop: %1</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/execution_panel.py" line="573" />
        <source>Confirm or cancel the candidate first.</source>
        <translation>Confirm or cancel the candidate first.</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/execution_panel.py" line="582" />
        <source>Could not save the input set: %1</source>
        <translation>Could not save the input set: %1</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/execution_panel.py" line="586" />
        <source>Input set saved in %1</source>
        <translation>Input set saved in %1</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/execution_panel.py" line="590" />
        <source>Status: %1</source>
        <translation>Status: %1</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/execution_panel.py" line="592" />
        <source>SCF iteration %1</source>
        <translation>SCF iteration %1</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/execution_panel.py" line="594" />
        <source>optimisation step %1</source>
        <translation>optimisation step %1</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/execution_panel.py" line="597" />
        <source>energy %1 Eh</source>
        <translation>energy %1 Eh</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/execution_panel.py" line="602" />
        <source>queued</source>
        <translation>queued</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/execution_panel.py" line="602" />
        <source>running</source>
        <translation>running</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/execution_panel.py" line="603" />
        <source>finished</source>
        <translation>finished</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/execution_panel.py" line="603" />
        <source>failed</source>
        <translation>failed</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/execution_panel.py" line="604" />
        <source>cancelled</source>
        <translation>cancelled</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/execution_panel.py" line="604" />
        <source>timed out</source>
        <translation>timed out</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/execution_panel.py" line="630" />
        <source>Job %1: %2</source>
        <translation>Job %1: %2</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/execution_panel.py" line="639" />
        <source>Running in %1</source>
        <translation>Running in %1</translation>
    </message>
    <message>
        <source>SCF cycle or optimisation step of the running job, out of the maximum set in the advanced settings (else NWChem's default)</source>
        <translation>SCF cycle or optimisation step of the running job, out of the maximum set in the advanced settings (else NWChem's default)</translation>
    </message>
    <message>
        <source>Optimisation step %v of %m</source>
        <translation>Optimisation step %v of %m</translation>
    </message>
    <message>
        <source>SCF cycle %v of %m</source>
        <translation>SCF cycle %v of %m</translation>
    </message>
    <message>
        <source>Scheduler</source>
        <translation>Scheduler</translation>
    </message>
    <message>
        <source>Local (this computer)</source>
        <translation>Local (this computer)</translation>
    </message>
    <message>
        <source>SLURM cluster (batch job)</source>
        <translation>SLURM cluster (batch job)</translation>
    </message>
    <message>
        <source>Run on:</source>
        <translation>Run on:</translation>
    </message>
    <message>
        <source>(cluster default)</source>
        <translation>(cluster default)</translation>
    </message>
    <message>
        <source>(default)</source>
        <translation>(default)</translation>
    </message>
    <message>
        <source>e.g. --mem=4G --constraint=cpu</source>
        <translation>e.g. --mem=4G --constraint=cpu</translation>
    </message>
    <message>
        <source>Partition:</source>
        <translation>Partition:</translation>
    </message>
    <message>
        <source>Account:</source>
        <translation>Account:</translation>
    </message>
    <message>
        <source>QoS:</source>
        <translation>QoS:</translation>
    </message>
    <message>
        <source>Nodes:</source>
        <translation>Nodes:</translation>
    </message>
    <message>
        <source>MPI processes per node:</source>
        <translation>MPI processes per node:</translation>
    </message>
    <message>
        <source>Extra batch options:</source>
        <translation>Extra batch options:</translation>
    </message>
    <message>
        <source>Threads become CPUs per task and the time limit the wall time. A batch job belongs to the cluster: closing MolForma does not cancel it.</source>
        <translation>Threads become CPUs per task and the time limit the wall time. A batch job belongs to the cluster: closing MolForma does not cancel it.</translation>
    </message>
    <message>
        <source>Unbalanced quotes.</source>
        <translation>Unbalanced quotes.</translation>
    </message>
    <message>
        <source>Write each option as --name=value: %1</source>
        <translation>Write each option as --name=value: %1</translation>
    </message>
    <message>
        <source>Scheduler: %1</source>
        <translation>Scheduler: %1</translation>
    </message>
    <message>
        <source>Account: %1</source>
        <translation>Account: %1</translation>
    </message>
    <message>
        <source>Extra batch options: %1</source>
        <translation>Extra batch options: %1</translation>
    </message>
    <message>
        <source>Batch job %1 (%2) in %3</source>
        <translation>Batch job %1 (%2) in %3</translation>
    </message>
    <message>
        <source>Waiting: %1</source>
        <translation>Waiting: %1</translation>
    </message>
</context>
<context>
    <name>HistoryPanel</name>
    <message>
        <location filename="../molforma/gui/widgets/history_panel.py" line="103" />
        <source>Scan</source>
        <translation>Scan</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/history_panel.py" line="114" />
        <source>Date</source>
        <translation>Date</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/history_panel.py" line="114" />
        <source>Title</source>
        <translation>Title</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/history_panel.py" line="114" />
        <source>Formula</source>
        <translation>Formula</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/history_panel.py" line="114" />
        <source>Task</source>
        <translation>Task</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/history_panel.py" line="115" />
        <source>Theory / basis</source>
        <translation>Theory / basis</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/history_panel.py" line="115" />
        <source>Status</source>
        <translation>Status</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/history_panel.py" line="115" />
        <source>Final energy (Eh)</source>
        <translation>Final energy (Eh)</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/history_panel.py" line="116" />
        <source>Folder</source>
        <translation>Folder</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/history_panel.py" line="141" />
        <source>Input</source>
        <translation>Input</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/history_panel.py" line="142" />
        <source>Log (end)</source>
        <translation>Log (end)</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/history_panel.py" line="145" />
        <source>Reuse molecule and conditions</source>
        <translation>Reuse molecule and conditions</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/history_panel.py" line="147" />
        <source>Open in results viewer</source>
        <translation>Open in results viewer</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/history_panel.py" line="149" />
        <source>Open folder</source>
        <translation>Open folder</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/history_panel.py" line="150" />
        <location filename="../molforma/gui/widgets/history_panel.py" line="441" />
        <location filename="../molforma/gui/widgets/history_panel.py" line="442" />
        <source>Move to trash</source>
        <translation>Move to trash</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/history_panel.py" line="151" />
        <source>Export CSV…</source>
        <translation>Export CSV…</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/history_panel.py" line="207" />
        <source>No job root is set.</source>
        <translation>No job root is set.</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/history_panel.py" line="210" />
        <source>Scanning %1 …</source>
        <translation>Scanning %1 …</translation>
    </message>
    <message numerus="yes">
        <location filename="../molforma/gui/widgets/history_panel.py" line="218" />
        <source>Scanning… %n folder(s)</source>
        <translation>
            <numerusform>Scanning… %n folder</numerusform>
            <numerusform>Scanning… %n folders</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../molforma/gui/widgets/history_panel.py" line="225" />
        <source>%n job(s) in %1</source>
        <translation>
            <numerusform>%n job in %1</numerusform>
            <numerusform>%n jobs in %1</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/history_panel.py" line="235" />
        <source>Scan cancelled.</source>
        <translation>Scan cancelled.</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/history_panel.py" line="237" />
        <source>Scan failed: %1</source>
        <translation>Scan failed: %1</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/history_panel.py" line="278" />
        <source>queued</source>
        <translation>queued</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/history_panel.py" line="278" />
        <source>running</source>
        <translation>running</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/history_panel.py" line="279" />
        <source>finished</source>
        <translation>finished</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/history_panel.py" line="279" />
        <source>failed</source>
        <translation>failed</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/history_panel.py" line="280" />
        <source>cancelled</source>
        <translation>cancelled</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/history_panel.py" line="280" />
        <source>timed out</source>
        <translation>timed out</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/history_panel.py" line="281" />
        <source>interrupted</source>
        <translation>interrupted</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/history_panel.py" line="281" />
        <source>saved (not run)</source>
        <translation>saved (not run)</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/history_panel.py" line="282" />
        <source>unknown</source>
        <translation>unknown</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/history_panel.py" line="344" />
        <source>Loading…</source>
        <translation>Loading…</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/history_panel.py" line="350" />
        <source>[… input shortened …]</source>
        <translation>[… input shortened …]</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/history_panel.py" line="353" />
        <source>[… only the end of the log is shown …]</source>
        <translation>[… only the end of the log is shown …]</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/history_panel.py" line="354" />
        <source>(no input file)</source>
        <translation>(no input file)</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/history_panel.py" line="355" />
        <source>(no output file)</source>
        <translation>(no output file)</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/history_panel.py" line="386" />
        <source>Cannot reuse: %1</source>
        <translation>Cannot reuse: %1</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/history_panel.py" line="388" />
        <source>Loaded the molecule and conditions of %1</source>
        <translation>Loaded the molecule and conditions of %1</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/history_panel.py" line="399" />
        <source>The results viewer is not available.</source>
        <translation>The results viewer is not available.</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/history_panel.py" line="433" />
        <source>Could not open %1</source>
        <translation>Could not open %1</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/history_panel.py" line="441" />
        <source>Cancel</source>
        <translation>Cancel</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/history_panel.py" line="443" />
        <source>Move this job folder to the trash?
%1</source>
        <translation>Move this job folder to the trash?
%1</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/history_panel.py" line="452" />
        <source>Cannot move to trash: %1</source>
        <translation>Cannot move to trash: %1</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/history_panel.py" line="455" />
        <source>Moved to trash: %1</source>
        <translation>Moved to trash: %1</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/history_panel.py" line="465" />
        <source>Export history as CSV</source>
        <translation>Export history as CSV</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/history_panel.py" line="466" />
        <source>CSV files (*.csv)</source>
        <translation>CSV files (*.csv)</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/history_panel.py" line="476" />
        <source>Cannot export: %1</source>
        <translation>Cannot export: %1</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/history_panel.py" line="478" />
        <source>Exported %1 rows to %2</source>
        <translation>Exported %1 rows to %2</translation>
    </message>
    <message>
        <source>Charge</source>
        <translation>Charge</translation>
    </message>
    <message>
        <source>Mult.</source>
        <translation>Mult.</translation>
    </message>
    <message>
        <source>Molecular charge of the job</source>
        <translation>Molecular charge of the job</translation>
    </message>
    <message>
        <source>Spin multiplicity (2S+1) of the job</source>
        <translation>Spin multiplicity (2S+1) of the job</translation>
    </message>
    <message>
        <source>Use final structure</source>
        <translation>Use final structure</translation>
    </message>
    <message>
        <source>Put the job's final computed structure into the editor as a candidate, keeping the current conditions</source>
        <translation>Put the job's final computed structure into the editor as a candidate, keeping the current conditions</translation>
    </message>
    <message>
        <source>with the input geometry</source>
        <translation>with the input geometry</translation>
    </message>
    <message>
        <source>with the final geometry</source>
        <translation>with the final geometry</translation>
    </message>
    <message>
        <source>Reuse the job's input geometry, or the last structure of its output (the optimised one)</source>
        <translation>Reuse the job's input geometry, or the last structure of its output (the optimised one)</translation>
    </message>
    <message>
        <source>Loaded the molecule (final geometry) and conditions of %1</source>
        <translation>Loaded the molecule (final geometry) and conditions of %1</translation>
    </message>
    <message>
        <source>Cannot use the structure: %1</source>
        <translation>Cannot use the structure: %1</translation>
    </message>
    <message>
        <source>The final structure of %1 is a candidate in the Molecule tab: confirm or cancel it there.</source>
        <translation>The final structure of %1 is a candidate in the Molecule tab: confirm or cancel it there.</translation>
    </message>
</context>
<context>
    <name>IRSpectrumWidget</name>
    <message>
        <location filename="../molforma/gui/widgets/plots.py" line="108" />
        <source>Wavenumber (cm⁻¹)</source>
        <translation>Wavenumber (cm⁻¹)</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/plots.py" line="109" />
        <source>IR intensity (km/mol)</source>
        <translation>IR intensity (km/mol)</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/plots.py" line="118" />
        <source>Width (FWHM, cm⁻¹):</source>
        <translation>Width (FWHM, cm⁻¹):</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/plots.py" line="127" />
        <source>Export PNG…</source>
        <translation>Export PNG…</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/plots.py" line="130" />
        <source>Export CSV…</source>
        <translation>Export CSV…</translation>
    </message>
    <message>
        <source>Scale factor:</source>
        <translation>Scale factor:</translation>
    </message>
    <message>
        <source>Harmonic frequencies are multiplied by this factor in the plot, the modes table and the CSV: pick the value for your method or type one (0.5–1.5)</source>
        <translation>Harmonic frequencies are multiplied by this factor in the plot, the modes table and the CSV: pick the value for your method or type one (0.5–1.5)</translation>
    </message>
    <message>
        <source>PNG size:</source>
        <translation>PNG size:</translation>
    </message>
    <message>
        <source>The PNG is the plot as shown, drawn this many times larger (sharp text and lines)</source>
        <translation>The PNG is the plot as shown, drawn this many times larger (sharp text and lines)</translation>
    </message>
    <message>
        <source>Lorentzian</source>
        <translation>Lorentzian</translation>
    </message>
    <message>
        <source>Gaussian</source>
        <translation>Gaussian</translation>
    </message>
    <message>
        <source>Band shape of the broadened curve</source>
        <translation>Band shape of the broadened curve</translation>
    </message>
    <message>
        <source>Not a scale factor: %1 (give a number from 0.5 to 1.5, for example 0.9613)</source>
        <translation>Not a scale factor: %1 (give a number from 0.5 to 1.5, for example 0.9613)</translation>
    </message>
    <message>
        <source>No IR spectrum: open the results of a frequency calculation.</source>
        <translation>No IR spectrum: open the results of a frequency calculation.</translation>
    </message>
</context>
<context>
    <name>PreferencesDialog</name>
    <message>
        <location filename="../molforma/gui/widgets/preferences_dialog.py" line="46" />
        <source>Preferences</source>
        <translation>Preferences</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/preferences_dialog.py" line="53" />
        <source>System language</source>
        <translation>System language</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/preferences_dialog.py" line="58" />
        <source>A new display language is applied at once.</source>
        <translation>A new display language is applied at once.</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/preferences_dialog.py" line="61" />
        <source>MOLFORMA_LANGUAGE=%1 is set and takes precedence over this choice.</source>
        <translation>MOLFORMA_LANGUAGE=%1 is set and takes precedence over this choice.</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/preferences_dialog.py" line="69" />
        <location filename="../molforma/gui/widgets/preferences_dialog.py" line="73" />
        <source>Browse…</source>
        <translation>Browse…</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/preferences_dialog.py" line="77" />
        <source>Variable</source>
        <translation>Variable</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/preferences_dialog.py" line="77" />
        <source>Value</source>
        <translation>Value</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/preferences_dialog.py" line="83" />
        <source>Add</source>
        <translation>Add</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/preferences_dialog.py" line="85" />
        <source>Remove</source>
        <translation>Remove</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/preferences_dialog.py" line="89" />
        <source>The executable, launcher and environment below are trusted: the headless server (molforma --mcp) runs NWChem only with them, and MCP clients cannot change them.</source>
        <translation>The executable, launcher and environment below are trusted: the headless server (molforma --mcp) runs NWChem only with them, and MCP clients cannot change them.</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/preferences_dialog.py" line="101" />
        <source>Display language:</source>
        <translation>Display language:</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/preferences_dialog.py" line="106" />
        <source>Default NWChem executable:</source>
        <translation>Default NWChem executable:</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/preferences_dialog.py" line="110" />
        <source>Default MPI launcher:</source>
        <translation>Default MPI launcher:</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/preferences_dialog.py" line="118" />
        <source>Default environment:</source>
        <translation>Default environment:</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/preferences_dialog.py" line="125" />
        <source>OK</source>
        <translation>OK</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/preferences_dialog.py" line="128" />
        <source>Cancel</source>
        <translation>Cancel</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/preferences_dialog.py" line="165" />
        <source>Choose a program</source>
        <translation>Choose a program</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/preferences_dialog.py" line="165" />
        <source>All files (*)</source>
        <translation>All files (*)</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/preferences_dialog.py" line="179" />
        <source>Give the NWChem executable (for example nwchem).</source>
        <translation>Give the NWChem executable (for example nwchem).</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/preferences_dialog.py" line="181" />
        <source>Give the MPI launcher (for example mpirun).</source>
        <translation>Give the MPI launcher (for example mpirun).</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/preferences_dialog.py" line="190" />
        <source>A variable has a value but no name.</source>
        <translation>A variable has a value but no name.</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/preferences_dialog.py" line="193" />
        <source>Not a valid variable name: %1</source>
        <translation>Not a valid variable name: %1</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/preferences_dialog.py" line="195" />
        <source>Variable given twice: %1</source>
        <translation>Variable given twice: %1</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/preferences_dialog.py" line="213" />
        <source>Cannot save the preferences: %1</source>
        <translation>Cannot save the preferences: %1</translation>
    </message>
</context>
<context>
    <name>ResultsPanel</name>
    <message>
        <source>frame %1</source>
        <translation>frame %1</translation>
    </message>
    <message>
        <source>step %1</source>
        <translation>step %1</translation>
    </message>
    <message>
        <source>atoms</source>
        <translation>atoms</translation>
    </message>
    <message>
        <source>reference</source>
        <translation>reference</translation>
    </message>
    <message>
        <source>geometry</source>
        <translation>geometry</translation>
    </message>
    <message>
        <source>final</source>
        <translation>final</translation>
    </message>
    <message>
        <source>input</source>
        <translation>input</translation>
    </message>
    <message>
        <source>Translation or rotation (left out of the IR spectrum)</source>
        <translation>Translation or rotation (left out of the IR spectrum)</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/results_panel.py" line="73" />
        <source>NWChem output, MOLDEN, XYZ</source>
        <translation>NWChem output, MOLDEN, XYZ</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/results_panel.py" line="75" />
        <source>All files (*)</source>
        <translation>All files (*)</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/results_panel.py" line="117" />
        <source>Open file…</source>
        <translation>Open file…</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/results_panel.py" line="118" />
        <source>Open folder…</source>
        <translation>Open folder…</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/results_panel.py" line="120" />
        <source>Reload</source>
        <translation>Reload</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/results_panel.py" line="132" />
        <source>File</source>
        <translation>File</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/results_panel.py" line="132" />
        <source>Kind</source>
        <translation>Kind</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/results_panel.py" line="156" />
        <source>Play</source>
        <translation>Play</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/results_panel.py" line="157" />
        <source>Stop</source>
        <translation>Stop</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/results_panel.py" line="165" />
        <source>Amplitude:</source>
        <translation>Amplitude:</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/results_panel.py" line="168" />
        <source>Structure:</source>
        <translation>Structure:</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/results_panel.py" line="187" />
        <source>Mode</source>
        <translation>Mode</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/results_panel.py" line="187" />
        <source>Frequency (cm⁻¹)</source>
        <translation>Frequency (cm⁻¹)</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/results_panel.py" line="187" />
        <source>IR (km/mol)</source>
        <translation>IR (km/mol)</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/results_panel.py" line="188" />
        <source>Imaginary</source>
        <translation>Imaginary</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/results_panel.py" line="188" />
        <source>Significant</source>
        <translation>Significant</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/results_panel.py" line="188" />
        <source>Displacements</source>
        <translation>Displacements</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/results_panel.py" line="204" />
        <source>Energy per step</source>
        <translation>Energy per step</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/results_panel.py" line="205" />
        <source>IR spectrum</source>
        <translation>IR spectrum</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/results_panel.py" line="270" />
        <source>Loading %1 …</source>
        <translation>Loading %1 …</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/results_panel.py" line="277" />
        <source>Loading cancelled; the previous results stay.</source>
        <translation>Loading cancelled; the previous results stay.</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/results_panel.py" line="279" />
        <source>Cannot load: %1</source>
        <translation>Cannot load: %1</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/results_panel.py" line="286" />
        <source>Open results</source>
        <translation>Open results</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/results_panel.py" line="292" />
        <source>Open a job folder</source>
        <translation>Open a job folder</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/results_panel.py" line="354" />
        <source>NWChem output</source>
        <translation>NWChem output</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/results_panel.py" line="354" />
        <source>MOLDEN</source>
        <translation>MOLDEN</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/results_panel.py" line="355" />
        <source>XYZ</source>
        <translation>XYZ</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/results_panel.py" line="355" />
        <source>Vibration animation</source>
        <translation>Vibration animation</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/results_panel.py" line="361" />
        <source>Vibration animations (by mode)</source>
        <translation>Vibration animations (by mode)</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/results_panel.py" line="363" />
        <source>Mode %1 (%2 steps)</source>
        <translation>Mode %1 (%2 steps)</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/results_panel.py" line="378" />
        <source>No results loaded.</source>
        <translation>No results loaded.</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/results_panel.py" line="381" />
        <location filename="../molforma/gui/widgets/results_panel.py" line="420" />
        <source>yes</source>
        <translation>yes</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/results_panel.py" line="381" />
        <source>no</source>
        <translation>no</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/results_panel.py" line="381" />
        <source>n/a</source>
        <translation>n/a</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/results_panel.py" line="387" />
        <source>Source: %1</source>
        <translation>Source: %1</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/results_panel.py" line="388" />
        <source>Program: %1</source>
        <translation>Program: %1</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/results_panel.py" line="389" />
        <source>Formula: %1 (%2 atoms)</source>
        <translation>Formula: %1 (%2 atoms)</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/results_panel.py" line="393" />
        <source>Final energy: %1 Eh (%2)</source>
        <translation>Final energy: %1 Eh (%2)</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/results_panel.py" line="396" />
        <source>Zero-point energy: %1 Eh</source>
        <translation>Zero-point energy: %1 Eh</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/results_panel.py" line="399" />
        <source>SCF converged: %1</source>
        <translation>SCF converged: %1</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/results_panel.py" line="400" />
        <source>Optimisation converged: %1 (%2 steps)</source>
        <translation>Optimisation converged: %1 (%2 steps)</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/results_panel.py" line="402" />
        <source>Run completed: %1</source>
        <translation>Run completed: %1</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/results_panel.py" line="403" />
        <source>Structures: %1, energies: %2, modes: %3</source>
        <translation>Structures: %1, energies: %2, modes: %3</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/results_panel.py" line="406" />
        <source>Imaginary modes: %1 (significant, below −10 cm⁻¹: %2)</source>
        <translation>Imaginary modes: %1 (significant, below −10 cm⁻¹: %2)</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/results_panel.py" line="410" />
        <source>Warnings: %1, errors: %2</source>
        <translation>Warnings: %1, errors: %2</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/results_panel.py" line="536" />
        <source>Mode %1: %2 cm⁻¹</source>
        <translation>Mode %1: %2 cm⁻¹</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/results_panel.py" line="657" />
        <source>PNG images (*.png)</source>
        <translation>PNG images (*.png)</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/results_panel.py" line="657" />
        <source>CSV files (*.csv)</source>
        <translation>CSV files (*.csv)</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/results_panel.py" line="658" />
        <source>Export IR spectrum</source>
        <translation>Export IR spectrum</translation>
    </message>
    <message>
        <location filename="../molforma/gui/widgets/results_panel.py" line="671" />
        <source>Saved %1</source>
        <translation>Saved %1</translation>
    </message>
    <message>
        <source>Orbitals</source>
        <translation>Orbitals</translation>
    </message>
    <message>
        <source>Use this structure</source>
        <translation>Use this structure</translation>
    </message>
    <message>
        <source>Put the structure chosen on the slider (the final one unless you move it) into the editor as a candidate; the atoms keep their ids when the elements match</source>
        <translation>Put the structure chosen on the slider (the final one unless you move it) into the editor as a candidate; the atoms keep their ids when the elements match</translation>
    </message>
    <message>
        <source>Cannot use the structure: %1</source>
        <translation>Cannot use the structure: %1</translation>
    </message>
    <message>
        <source>Structure %1 is a candidate in the Molecule tab: confirm or cancel it there.</source>
        <translation>Structure %1 is a candidate in the Molecule tab: confirm or cancel it there.</translation>
    </message>
    <message>
        <source>Arrows</source>
        <translation>Arrows</translation>
    </message>
    <message>
        <source>Show the displacement of each atom in the selected mode as an arrow, still or while the mode plays</source>
        <translation>Show the displacement of each atom in the selected mode as an arrow, still or while the mode plays</translation>
    </message>
</context>
<context>
    <name>OrbitalPanel</name>
    <message>
        <source>HOMO</source>
        <translation>HOMO</translation>
    </message>
    <message>
        <source>LUMO</source>
        <translation>LUMO</translation>
    </message>
    <message>
        <source>Show</source>
        <translation>Show</translation>
    </message>
    <message>
        <source>Hide</source>
        <translation>Hide</translation>
    </message>
    <message>
        <source>Export cube…</source>
        <translation>Export cube…</translation>
    </message>
    <message>
        <source>Select and draw the highest occupied orbital</source>
        <translation>Select and draw the highest occupied orbital</translation>
    </message>
    <message>
        <source>Select and draw the lowest unoccupied orbital</source>
        <translation>Select and draw the lowest unoccupied orbital</translation>
    </message>
    <message>
        <source>Isovalue of the surface (bohr^-3/2); both signs are drawn</source>
        <translation>Isovalue of the surface (bohr^-3/2); both signs are drawn</translation>
    </message>
    <message>
        <source>Save the orbital on its grid as a Gaussian cube file</source>
        <translation>Save the orbital on its grid as a Gaussian cube file</translation>
    </message>
    <message>
        <source>#</source>
        <translation>#</translation>
    </message>
    <message>
        <source>Spin</source>
        <translation>Spin</translation>
    </message>
    <message>
        <source>Energy (Eh)</source>
        <translation>Energy (Eh)</translation>
    </message>
    <message>
        <source>Energy (eV)</source>
        <translation>Energy (eV)</translation>
    </message>
    <message>
        <source>Occupation</source>
        <translation>Occupation</translation>
    </message>
    <message>
        <source>Isovalue:</source>
        <translation>Isovalue:</translation>
    </message>
    <message>
        <source>The isovalue must be a number between 0 and 10, written with a point (e.g. 0.05).</source>
        <translation>The isovalue must be a number between 0 and 10, written with a point (e.g. 0.05).</translation>
    </message>
    <message>
        <source>Export orbital</source>
        <translation>Export orbital</translation>
    </message>
    <message>
        <source>Gaussian cube files (*.cube)</source>
        <translation>Gaussian cube files (*.cube)</translation>
    </message>
    <message>
        <source>Saved %1</source>
        <translation>Saved %1</translation>
    </message>
</context>
<context>
    <name>UVVisSpectrumWidget</name>
    <message>
        <source>No excitations: open the results of a TDDFT or CIS calculation.</source>
        <translation>No excitations: open the results of a TDDFT or CIS calculation.</translation>
    </message>
</context>
</TS>