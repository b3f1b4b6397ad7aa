<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="ja_JP">
<context>
    <name>CalculationPanel</name>
    <message>
        <source>(NWChem default)</source>
        <translation>（NWChemの既定値）</translation>
    </message>
    <message>
        <source>Conditions</source>
        <translation>計算条件</translation>
    </message>
    <message>
        <source>Automatic (from multiplicity)</source>
        <translation>自動（多重度から選択）</translation>
    </message>
    <message>
        <source>Task:</source>
        <translation>タスク:</translation>
    </message>
    <message>
        <source>Theory:</source>
        <translation>理論:</translation>
    </message>
    <message>
        <source>Functional:</source>
        <translation>汎関数:</translation>
    </message>
    <message>
        <source>Basis set:</source>
        <translation>基底関数:</translation>
    </message>
    <message>
        <source>SCF reference:</source>
        <translation>SCF参照:</translation>
    </message>
    <message>
        <source>Charge:</source>
        <translation>電荷:</translation>
    </message>
    <message>
        <source>Multiplicity:</source>
        <translation>多重度:</translation>
    </message>
    <message>
        <source>Advanced settings</source>
        <translation>詳細設定</translation>
    </message>
    <message>
        <source>Extra input (added to the input before the tasks)</source>
        <translation>追加入力（タスクの前に入力へ追加）</translation>
    </message>
    <message>
        <source>NWChem directives, e.g. a property block</source>
        <translation>NWChemの指定（例: property ブロック）</translation>
    </message>
    <message>
        <source>Extra task lines, one per line, e.g. scf property</source>
        <translation>追加のタスク行（1行に1つ、例: scf property）</translation>
    </message>
    <message>
        <source>Apply extra input</source>
        <translation>追加入力を適用</translation>
    </message>
    <message>
        <source>Extra tasks:</source>
        <translation>追加タスク:</translation>
    </message>
    <message>
        <source>NWChem input (live preview):</source>
        <translation>NWChem入力（ライブプレビュー）:</translation>
    </message>
    <message>
        <source>Number of excited states (roots) per spin manifold: nroots in the tddft block.</source>
        <translation>スピン多重度ごとに求める励起状態（根）の数。tddft ブロックの nroots です。</translation>
    </message>
    <message>
        <source>Singlets</source>
        <translation>一重項</translation>
    </message>
    <message>
        <source>Triplets</source>
        <translation>三重項</translation>
    </message>
    <message>
        <source>Singlets and triplets</source>
        <translation>一重項と三重項</translation>
    </message>
    <message>
        <source>Closed shells: which spin states (notriplet / nosinglet). An open shell gets its states of any spin.</source>
        <translation>閉殻分子で求めるスピン状態（notriplet / nosinglet）。開殻分子ではスピンを問わず求めます。</translation>
    </message>
    <message>
        <source>Full linear response (TDDFT; TDHF with SCF)</source>
        <translation>完全な線形応答（TDDFT。SCF では TDHF）</translation>
    </message>
    <message>
        <source>Tamm–Dancoff (TDA; CIS with SCF)</source>
        <translation>Tamm–Dancoff 近似（TDA。SCF では CIS）</translation>
    </message>
    <message>
        <source>Tamm–Dancoff writes cis in the tddft block; with SCF as the theory the excitations are CIS.</source>
        <translation>Tamm–Dancoff 近似では tddft ブロックに cis と書きます。理論が SCF なら CIS 計算になります。</translation>
    </message>
    <message>
        <source>Follow the reaction path down both sides (IRC)</source>
        <translation>反応経路を両側へたどる（IRC）</translation>
    </message>
    <message>
        <source>After the frequencies, NWChem&apos;s mepgs module follows the imaginary mode forward and backward; each side&apos;s points are opened from the job folder (.fxyz, .bxyz).</source>
        <translation>振動数計算のあと、NWChem の mepgs モジュールが虚振動の方向に沿って前方と後方へ経路をたどります。各側の点はジョブフォルダ（.fxyz、.bxyz）から開けます。</translation>
    </message>
    <message>
        <source>Implicit solvent (COSMO) by its dielectric constant; the solvation energy is shown with the results.</source>
        <translation>誘電率で表す連続溶媒モデル（COSMO）。溶媒和エネルギーは結果に表示されます。</translation>
    </message>
    <message>
        <source>a number above 1, e.g. 10.5</source>
        <translation>1 より大きい数（例: 10.5）</translation>
    </message>
    <message>
        <source>Custom dielectric constant for COSMO (dielec).</source>
        <translation>COSMO の誘電率を直接指定します（dielec）。</translation>
    </message>
    <message>
        <source>Spin states:</source>
        <translation>スピン状態:</translation>
    </message>
    <message>
        <source>Method:</source>
        <translation>計算法:</translation>
    </message>
    <message>
        <source>Reaction path:</source>
        <translation>反応経路:</translation>
    </message>
    <message>
        <source>Solvent (COSMO):</source>
        <translation>溶媒（COSMO）:</translation>
    </message>
    <message>
        <source>Dielectric constant:</source>
        <translation>誘電率:</translation>
    </message>
    <message>
        <source>None (gas phase)</source>
        <translation>なし（気相）</translation>
    </message>
    <message>
        <source>Custom dielectric constant</source>
        <translation>誘電率を直接指定</translation>
    </message>
    <message>
        <source>Not applied yet</source>
        <translation>まだ適用されていません</translation>
    </message>
    <message>
        <source>  # … {count} more atoms (the full input is written when the job runs or on export)</source>
        <translation>  # … ほか {count} 原子（完全な入力はジョブの実行時またはエクスポート時に書き出されます）</translation>
    </message>
    <message>
        <source>The NWChem input generator is not available.</source>
        <translation>NWChem入力の生成機能を利用できません。</translation>
    </message>
    <message>
        <source>The input cannot be generated:</source>
        <translation>入力を生成できません:</translation>
    </message>
    <message>
        <source>Warning: %1</source>
        <translation>警告: %1</translation>
    </message>
    <message numerus="yes">
        <source>… and %n more warning(s).</source>
        <translation>
            <numerusform>… ほかに警告が %n 件あります。</numerusform>
        </translation>
    </message>
    <message>
        <source>Partly checked: automatic (MolForma chooses what is safe for this molecule and basis set).</source>
        <translation>一部チェック：自動（この分子と基底関数に安全な設定を MolForma が選びます）。</translation>
    </message>
    <message>
        <source>Excited states (roots):</source>
        <translation>励起状態の数:</translation>
    </message>
    <message>
        <source>Not a whole number: %1</source>
        <translation>整数ではありません: %1</translation>
    </message>
    <message>
        <source>Not a number: %1 (write it like 1e-6 or 0.001, with a point)</source>
        <translation>数値ではありません: %1（1e-6 や 0.001 のように小数点で書いてください）</translation>
    </message>
</context>
<context>
    <name>EnergyPlot</name>
    <message>
        <source>Step</source>
        <translation>ステップ</translation>
    </message>
    <message>
        <source>Energy</source>
        <translation>エネルギー</translation>
    </message>
    <message>
        <source>No energies yet: they appear here step by step while a calculation runs or when results are opened.</source>
        <translation>まだエネルギーがありません。計算の実行中に一歩ずつ、または結果を開くと表示されます。</translation>
    </message>
</context>
<context>
    <name>ExcitationsTable</name>
    <message>
        <source>Excited states as NWChem printed them; the dominant transitions are occupied → virtual orbital (NWChem&apos;s vector numbers) with their coefficients.</source>
        <translation>NWChem が出力した励起状態です。主な遷移は占有軌道 → 仮想軌道（NWChem のベクトル番号）とその係数です。</translation>
    </message>
    <message>
        <source>Root</source>
        <translation>根</translation>
    </message>
    <message>
        <source>State</source>
        <translation>状態</translation>
    </message>
    <message>
        <source>Energy (eV)</source>
        <translation>エネルギー（eV）</translation>
    </message>
    <message>
        <source>Wavelength (nm)</source>
        <translation>波長（nm）</translation>
    </message>
    <message>
        <source>Oscillator strength</source>
        <translation>振動子強度</translation>
    </message>
    <message>
        <source>Dominant transitions</source>
        <translation>主な遷移</translation>
    </message>
    <message>
        <source>singlet</source>
        <translation>一重項</translation>
    </message>
    <message>
        <source>triplet</source>
        <translation>三重項</translation>
    </message>
    <message>
        <source>spin-forbidden</source>
        <translation>スピン禁制</translation>
    </message>
    <message>
        <source>Solvation energy (COSMO, electrostatic): %1 Eh (%2 kcal/mol)</source>
        <translation>溶媒和エネルギー（COSMO、静電）: %1 Eh（%2 kcal/mol）</translation>
    </message>
    <message>
        <source>Transition state: one imaginary mode (%1 cm⁻¹)</source>
        <translation>遷移状態: 虚振動が 1 つ（%1 cm⁻¹）</translation>
    </message>
    <message>
        <source>Not a transition state: %1 imaginary modes (one expected)</source>
        <translation>遷移状態ではありません: 虚振動が %1 個（1 個のはず）</translation>
    </message>
</context>
<context>
    <name>ExecutionPanel</name>
    <message>
        <source>NWChem output (live log):</source>
        <translation>NWChem の出力（ライブログ）：</translation>
    </message>
    <message>
        <source>Program</source>
        <translation>プログラム</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>参照…</translation>
    </message>
    <message>
        <source>NWChem executable:</source>
        <translation>NWChem実行ファイル:</translation>
    </message>
    <message>
        <source>MPI launcher:</source>
        <translation>MPIランチャー:</translation>
    </message>
    <message>
        <source>Variable</source>
        <translation>変数</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>値</translation>
    </message>
    <message>
        <source>Add</source>
        <translation>追加</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>削除</translation>
    </message>
    <message>
        <source>Environment:</source>
        <translation>環境変数:</translation>
    </message>
    <message>
        <source>Resources</source>
        <translation>計算資源</translation>
    </message>
    <message>
        <source> s</source>
        <translation> 秒</translation>
    </message>
    <message>
        <source>No limit</source>
        <translation>制限なし</translation>
    </message>
    <message>
        <source>MPI processes:</source>
        <translation>MPIプロセス数:</translation>
    </message>
    <message>
        <source>Threads (OMP_NUM_THREADS):</source>
        <translation>スレッド数（OMP_NUM_THREADS）:</translation>
    </message>
    <message>
        <source>Time limit:</source>
        <translation>時間制限:</translation>
    </message>
    <message>
        <source>Folders</source>
        <translation>フォルダ</translation>
    </message>
    <message>
        <source>(none)</source>
        <translation>（なし）</translation>
    </message>
    <message>
        <source>Job root:</source>
        <translation>ジョブ保存先:</translation>
    </message>
    <message>
        <source>Reference directory:</source>
        <translation>参照ディレクトリ:</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>実行</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>Save input set</source>
        <translation>入力一式を保存</translation>
    </message>
    <message>
        <source>Cluster profile %1 (%2, over ssh)</source>
        <translation>クラスタープロファイル %1（%2、ssh 経由）</translation>
    </message>
    <message>
        <source>Cluster profile %1 (not in Preferences)</source>
        <translation>クラスタープロファイル %1（環境設定にありません）</translation>
    </message>
    <message>
        <source>Where the calculation runs: on this computer, as a batch job of the SLURM cluster here, or on a cluster profile of your Preferences, reached over ssh (Edit → Preferences edits the profiles).</source>
        <translation>計算を実行する場所: このコンピューター、ここの SLURM クラスターのバッチジョブ、または ssh で接続する環境設定のクラスタープロファイル（プロファイルは 編集 → 環境設定 で編集します）。</translation>
    </message>
    <message>
        <source>(profile: %1)</source>
        <translation>（プロファイル: %1）</translation>
    </message>
    <message>
        <source>Give a command (for example nwchem).</source>
        <translation>コマンドを指定してください（例: nwchem）。</translation>
    </message>
    <message>
        <source>Give a folder for the jobs.</source>
        <translation>ジョブを保存するフォルダを指定してください。</translation>
    </message>
    <message>
        <source>Choose a program</source>
        <translation>プログラムを選択</translation>
    </message>
    <message>
        <source>All files (*)</source>
        <translation>すべてのファイル (*)</translation>
    </message>
    <message>
        <source>Choose a folder</source>
        <translation>フォルダを選択</translation>
    </message>
    <message>
        <source>Not a valid variable name: %1</source>
        <translation>変数名として正しくありません: %1</translation>
    </message>
    <message>
        <source>Variable given twice: %1</source>
        <translation>変数が重複しています: %1</translation>
    </message>
    <message>
        <source>These settings can run any program. They were not set by you in this window (for example they come from a loaded project or a reused job).</source>
        <translation>これらの設定は任意のプログラムを実行できます。このウィンドウで利用者が設定した値ではありません（読み込んだプロジェクトや再利用した履歴の値など）。</translation>
    </message>
    <message>
        <source>Executable: %1</source>
        <translation>実行ファイル: %1</translation>
    </message>
    <message>
        <source>Launcher: %1</source>
        <translation>ランチャー: %1</translation>
    </message>
    <message>
        <source>Environment: %1</source>
        <translation>環境変数: %1</translation>
    </message>
    <message>
        <source>Extra input: %1</source>
        <translation>追加入力: %1</translation>
    </message>
    <message>
        <source>Extra tasks: %1</source>
        <translation>追加タスク: %1</translation>
    </message>
    <message>
        <source>Run the calculation with these settings and trust them from now on?</source>
        <translation>この設定で計算を実行し、今後この値を信頼済みとしますか？</translation>
    </message>
    <message>
        <source>Cluster profile: %1</source>
        <translation>クラスタープロファイル: %1</translation>
    </message>
    <message>
        <source>Host (ssh): %1</source>
        <translation>ホスト (ssh): %1</translation>
    </message>
    <message>
        <source>(not in Preferences)</source>
        <translation>（環境設定にありません）</translation>
    </message>
    <message>
        <source>Confirm or cancel the candidate before running.</source>
        <translation>実行する前に候補を確定または取り消してください。</translation>
    </message>
    <message>
        <source>Cannot run:</source>
        <translation>実行できません:</translation>
    </message>
    <message>
        <source>Yes</source>
        <translation>はい</translation>
    </message>
    <message>
        <source>No</source>
        <translation>いいえ</translation>
    </message>
    <message>
        <source>Run with these settings?</source>
        <translation>この設定で実行しますか？</translation>
    </message>
    <message>
        <source>Not started: the settings were not confirmed.</source>
        <translation>開始しませんでした: 設定が確認されませんでした。</translation>
    </message>
    <message>
        <source>Not started: these execution settings were not chosen in this window, and only you can confirm them.</source>
        <translation>開始しませんでした: この実行設定はこのウィンドウで選ばれたものではなく、確認できるのはあなただけです。</translation>
    </message>
    <message>
        <source>Not started: the project changed while the confirmation was open. Press Run again to review the settings as they are now.</source>
        <translation>開始しませんでした: 確認の表示中にプロジェクトが変更されました。もう一度「実行」を押して、現在の設定を確認してください。</translation>
    </message>
    <message>
        <source>Running calculations is not available.</source>
        <translation>計算の実行機能を利用できません。</translation>
    </message>
    <message>
        <source>Could not start: %1</source>
        <translation>開始できませんでした: %1</translation>
    </message>
    <message>
        <source>Could not stop: %1</source>
        <translation>停止できませんでした: %1</translation>
    </message>
    <message>
        <source>Confirm or cancel the candidate first.</source>
        <translation>先に候補を確定または取り消してください。</translation>
    </message>
    <message>
        <source>Could not save the input set: %1</source>
        <translation>入力一式を保存できませんでした: %1</translation>
    </message>
    <message>
        <source>Input set saved in %1</source>
        <translation>入力一式を %1 に保存しました</translation>
    </message>
    <message>
        <source>Status: %1</source>
        <translation>状態: %1</translation>
    </message>
    <message>
        <source>SCF iteration %1</source>
        <translation>SCF反復 %1</translation>
    </message>
    <message>
        <source>optimisation step %1</source>
        <translation>最適化ステップ %1</translation>
    </message>
    <message>
        <source>energy %1 Eh</source>
        <translation>エネルギー %1 Eh</translation>
    </message>
    <message>
        <source>queued</source>
        <translation>待機中</translation>
    </message>
    <message>
        <source>running</source>
        <translation>実行中</translation>
    </message>
    <message>
        <source>finished</source>
        <translation>完了</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>失敗</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>中止</translation>
    </message>
    <message>
        <source>timed out</source>
        <translation>時間切れ</translation>
    </message>
    <message>
        <source>Job %1: %2</source>
        <translation>ジョブ %1: %2</translation>
    </message>
    <message>
        <source>Running in %1</source>
        <translation>%1 で実行中</translation>
    </message>
    <message>
        <source>SCF cycle or optimisation step of the running job, out of the maximum set in the advanced settings (else NWChem&apos;s default)</source>
        <translation>実行中のジョブの SCF サイクルまたは最適化ステップ（最大値は詳細設定の値、未設定なら NWChem の既定値）</translation>
    </message>
    <message>
        <source>Optimisation step %v of %m</source>
        <translation>最適化ステップ %v / %m</translation>
    </message>
    <message>
        <source>SCF cycle %v of %m</source>
        <translation>SCF サイクル %v / %m</translation>
    </message>
    <message>
        <source>Scheduler</source>
        <translation>スケジューラー</translation>
    </message>
    <message>
        <source>Local (this computer)</source>
        <translation>ローカル（このコンピューター）</translation>
    </message>
    <message>
        <source>SLURM cluster (batch job)</source>
        <translation>SLURMクラスター（バッチジョブ）</translation>
    </message>
    <message>
        <source>Run on:</source>
        <translation>実行先:</translation>
    </message>
    <message>
        <source>(cluster default)</source>
        <translation>（クラスターの既定）</translation>
    </message>
    <message>
        <source>(default)</source>
        <translation>（既定）</translation>
    </message>
    <message>
        <source>e.g. --mem=4G --constraint=cpu</source>
        <translation>例: --mem=4G --constraint=cpu</translation>
    </message>
    <message>
        <source>Partition:</source>
        <translation>パーティション:</translation>
    </message>
    <message>
        <source>Account:</source>
        <translation>アカウント:</translation>
    </message>
    <message>
        <source>QoS:</source>
        <translation>QoS:</translation>
    </message>
    <message>
        <source>Nodes:</source>
        <translation>ノード数:</translation>
    </message>
    <message>
        <source>MPI processes per node:</source>
        <translation>ノードあたりのMPIプロセス数:</translation>
    </message>
    <message>
        <source>Extra batch options:</source>
        <translation>追加のバッチオプション:</translation>
    </message>
    <message>
        <source>Threads become CPUs per task and the time limit the wall time. A batch job belongs to the cluster: closing MolForma does not cancel it.</source>
        <translation>スレッド数はタスクあたりのCPU数に、制限時間はウォールタイムになります。バッチジョブはクラスターのものです。MolFormaを閉じても取り消されません。</translation>
    </message>
    <message>
        <source>Unbalanced quotes.</source>
        <translation>引用符が閉じていません。</translation>
    </message>
    <message>
        <source>Write each option as --name=value: %1</source>
        <translation>各オプションは --name=value の形で書いてください: %1</translation>
    </message>
    <message>
        <source>Scheduler: %1</source>
        <translation>スケジューラー: %1</translation>
    </message>
    <message>
        <source>Account: %1</source>
        <translation>アカウント: %1</translation>
    </message>
    <message>
        <source>Extra batch options: %1</source>
        <translation>追加のバッチオプション: %1</translation>
    </message>
    <message>
        <source>Job name: %1</source>
        <translation>ジョブ名: %1</translation>
    </message>
    <message>
        <source>Batch job %1 (%2) in %3</source>
        <translation>バッチジョブ %1（%2）: %3</translation>
    </message>
    <message>
        <source>Waiting: %1</source>
        <translation>待機理由: %1</translation>
    </message>
</context>
<context>
    <name>HistoryPanel</name>
    <message>
        <source>Scan</source>
        <translation>走査</translation>
    </message>
    <message>
        <source>Date</source>
        <translation>日時</translation>
    </message>
    <message>
        <source>Title</source>
        <translation>タイトル</translation>
    </message>
    <message>
        <source>Formula</source>
        <translation>組成式</translation>
    </message>
    <message>
        <source>Task</source>
        <translation>タスク</translation>
    </message>
    <message>
        <source>Theory / basis</source>
        <translation>理論 / 基底関数</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状態</translation>
    </message>
    <message>
        <source>Final energy (Eh)</source>
        <translation>最終エネルギー（Eh）</translation>
    </message>
    <message>
        <source>Folder</source>
        <translation>フォルダ</translation>
    </message>
    <message>
        <source>Ran on</source>
        <translation>実行場所</translation>
    </message>
    <message>
        <source>Input</source>
        <translation>入力</translation>
    </message>
    <message>
        <source>Log (end)</source>
        <translation>ログ（末尾）</translation>
    </message>
    <message>
        <source>Reuse molecule and conditions</source>
        <translation>分子・条件を再利用</translation>
    </message>
    <message>
        <source>Open in results viewer</source>
        <translation>結果ビューアで開く</translation>
    </message>
    <message>
        <source>Open folder</source>
        <translation>保存先を開く</translation>
    </message>
    <message>
        <source>Move to trash</source>
        <translation>ごみ箱へ</translation>
    </message>
    <message>
        <source>Export CSV…</source>
        <translation>CSVを書き出す…</translation>
    </message>
    <message>
        <source>Where the job ran: this computer, the local SLURM, or a cluster profile and its host</source>
        <translation>ジョブを実行した場所: このコンピューター、ローカルの SLURM、またはクラスタープロファイルとそのホスト</translation>
    </message>
    <message>
        <source>No job root is set.</source>
        <translation>ジョブ保存先が設定されていません。</translation>
    </message>
    <message>
        <source>Scanning %1 …</source>
        <translation>%1 を走査中…</translation>
    </message>
    <message numerus="yes">
        <source>Scanning… %n folder(s)</source>
        <translation>
            <numerusform>走査中… %n フォルダ</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n job(s) in %1</source>
        <translation>
            <numerusform>%1 に %n 件のジョブ</numerusform>
        </translation>
    </message>
    <message>
        <source>Scan cancelled.</source>
        <translation>走査を中止しました。</translation>
    </message>
    <message>
        <source>Scan failed: %1</source>
        <translation>走査に失敗しました: %1</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <source>Local</source>
        <translation>ローカル</translation>
    </message>
    <message>
        <source>Local SLURM</source>
        <translation>ローカル SLURM</translation>
    </message>
    <message>
        <source>Ran on this computer.</source>
        <translation>このコンピューターで実行しました。</translation>
    </message>
    <message>
        <source>Ran on the local SLURM cluster.</source>
        <translation>ローカルの SLURM クラスターで実行しました。</translation>
    </message>
    <message>
        <source>Ran on the cluster profile %1 (host %2).</source>
        <translation>クラスタープロファイル %1（ホスト %2）で実行しました。</translation>
    </message>
    <message>
        <source>Connection error: %1</source>
        <translation>接続エラー: %1</translation>
    </message>
    <message>
        <source>Left on the cluster: %1</source>
        <translation>クラスターに残したファイル: %1</translation>
    </message>
    <message>
        <source>queued</source>
        <translation>待機中</translation>
    </message>
    <message>
        <source>running</source>
        <translation>実行中</translation>
    </message>
    <message>
        <source>finished</source>
        <translation>完了</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>失敗</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>中止</translation>
    </message>
    <message>
        <source>timed out</source>
        <translation>時間切れ</translation>
    </message>
    <message>
        <source>interrupted</source>
        <translation>中断</translation>
    </message>
    <message>
        <source>saved (not run)</source>
        <translation>保存のみ（未実行）</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>不明</translation>
    </message>
    <message>
        <source>Loading…</source>
        <translation>読み込み中…</translation>
    </message>
    <message>
        <source>[… input shortened …]</source>
        <translation>[… 入力の後半を省略 …]</translation>
    </message>
    <message>
        <source>[… only the end of the log is shown …]</source>
        <translation>[… ログの末尾のみ表示 …]</translation>
    </message>
    <message>
        <source>(no input file)</source>
        <translation>（入力ファイルなし）</translation>
    </message>
    <message>
        <source>(no output file)</source>
        <translation>（出力ファイルなし）</translation>
    </message>
    <message>
        <source>Cannot reuse: %1</source>
        <translation>再利用できません: %1</translation>
    </message>
    <message>
        <source>Loaded the molecule and conditions of %1</source>
        <translation>%1 の分子と条件を読み込みました</translation>
    </message>
    <message>
        <source>The results viewer is not available.</source>
        <translation>結果ビューアを利用できません。</translation>
    </message>
    <message>
        <source>Could not open %1</source>
        <translation>%1 を開けませんでした</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>キャンセル</translation>
    </message>
    <message>
        <source>Move this job folder to the trash?
%1</source>
        <translation>このジョブフォルダをごみ箱へ移動しますか？
%1</translation>
    </message>
    <message>
        <source>Cannot move to trash: %1</source>
        <translation>ごみ箱へ移動できません: %1</translation>
    </message>
    <message>
        <source>Moved to trash: %1</source>
        <translation>ごみ箱へ移動しました: %1</translation>
    </message>
    <message>
        <source>Export history as CSV</source>
        <translation>履歴をCSVで書き出す</translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation>CSVファイル (*.csv)</translation>
    </message>
    <message>
        <source>Cannot export: %1</source>
        <translation>書き出せません: %1</translation>
    </message>
    <message>
        <source>Exported %1 rows to %2</source>
        <translation>%1 行を %2 に書き出しました</translation>
    </message>
    <message>
        <source>Charge</source>
        <translation>電荷</translation>
    </message>
    <message>
        <source>Mult.</source>
        <translation>多重度</translation>
    </message>
    <message>
        <source>Molecular charge of the job</source>
        <translation>ジョブの分子の電荷</translation>
    </message>
    <message>
        <source>Spin multiplicity (2S+1) of the job</source>
        <translation>ジョブのスピン多重度 (2S+1)</translation>
    </message>
    <message>
        <source>Use final structure</source>
        <translation>最終構造を使う</translation>
    </message>
    <message>
        <source>Put the job&apos;s final computed structure into the editor as a candidate, keeping the current conditions</source>
        <translation>ジョブの最終的な計算構造を候補としてエディタに入れます（現在の計算条件はそのまま）</translation>
    </message>
    <message>
        <source>with the input geometry</source>
        <translation>入力構造で</translation>
    </message>
    <message>
        <source>with the final geometry</source>
        <translation>最終構造で</translation>
    </message>
    <message>
        <source>Reuse the job&apos;s input geometry, or the last structure of its output (the optimised one)</source>
        <translation>ジョブの入力構造、または出力の最後の構造（最適化後の構造）を再利用します</translation>
    </message>
    <message>
        <source>Loaded the molecule (final geometry) and conditions of %1</source>
        <translation>%1 の分子（最終構造）と計算条件を読み込みました</translation>
    </message>
    <message>
        <source>Cannot use the structure: %1</source>
        <translation>構造を使えません: %1</translation>
    </message>
    <message>
        <source>The final structure of %1 is a candidate in the Molecule tab: confirm or cancel it there.</source>
        <translation>%1 の最終構造を分子タブの候補にしました。そこで確定または取り消してください。</translation>
    </message>
</context>
<context>
    <name>IRSpectrumWidget</name>
    <message>
        <source>Wavenumber (cm⁻¹)</source>
        <translation>波数（cm⁻¹）</translation>
    </message>
    <message>
        <source>IR intensity (km/mol)</source>
        <translation>IR強度（km/mol）</translation>
    </message>
    <message>
        <source>Width (FWHM, cm⁻¹):</source>
        <translation>線幅（半値全幅, cm⁻¹）:</translation>
    </message>
    <message>
        <source>Export PNG…</source>
        <translation>PNGを書き出す…</translation>
    </message>
    <message>
        <source>Export CSV…</source>
        <translation>CSVを書き出す…</translation>
    </message>
    <message>
        <source>Scale factor:</source>
        <translation>スケール因子:</translation>
    </message>
    <message>
        <source>Harmonic frequencies are multiplied by this factor in the plot, the modes table and the CSV: pick the value for your method or type one (0.5–1.5)</source>
        <translation>調和振動数にこの因子を掛けてプロット・モード表・CSV に表示します。手法に合った値を選ぶか入力してください（0.5〜1.5）</translation>
    </message>
    <message>
        <source>PNG size:</source>
        <translation>PNG の大きさ:</translation>
    </message>
    <message>
        <source>The PNG is the plot as shown, drawn this many times larger (sharp text and lines)</source>
        <translation>表示中のプロットをこの倍率で描き直して PNG にします（文字も線もくっきり）</translation>
    </message>
    <message>
        <source>Lorentzian</source>
        <translation>ローレンツ型</translation>
    </message>
    <message>
        <source>Gaussian</source>
        <translation>ガウス型</translation>
    </message>
    <message>
        <source>Band shape of the broadened curve</source>
        <translation>広げた曲線のバンド形状</translation>
    </message>
    <message>
        <source>Not a scale factor: %1 (give a number from 0.5 to 1.5, for example 0.9613)</source>
        <translation>スケール因子ではありません: %1（0.5〜1.5 の数、例えば 0.9613 を指定してください）</translation>
    </message>
    <message>
        <source>No IR spectrum: open the results of a frequency calculation.</source>
        <translation>IR スペクトルはありません。振動数計算の結果を開いてください。</translation>
    </message>
</context>
<context>
    <name>LevelDiagram</name>
    <message>
        <source>Orbitals</source>
        <translation>軌道</translation>
    </message>
    <message>
        <source>α (alpha)</source>
        <translation>α スピン</translation>
    </message>
    <message>
        <source>β (beta)</source>
        <translation>β スピン</translation>
    </message>
    <message>
        <source>No orbital energies in these results.</source>
        <translation>この結果には軌道エネルギーがありません。</translation>
    </message>
    <message>
        <source>Energy (eV)</source>
        <translation>エネルギー（eV）</translation>
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
        <translation>表示</translation>
    </message>
    <message>
        <source>Hide</source>
        <translation>隠す</translation>
    </message>
    <message>
        <source>Export cube…</source>
        <translation>cube 形式で書き出す…</translation>
    </message>
    <message>
        <source>Select and draw the highest occupied orbital</source>
        <translation>最高被占軌道を選んで描画します</translation>
    </message>
    <message>
        <source>Select and draw the lowest unoccupied orbital</source>
        <translation>最低空軌道を選んで描画します</translation>
    </message>
    <message>
        <source>Isovalue of the surface (bohr^-3/2); both signs are drawn</source>
        <translation>等値面の値（bohr^-3/2）。正負の両方を描きます</translation>
    </message>
    <message>
        <source>α (alpha)</source>
        <translation>α スピン</translation>
    </message>
    <message>
        <source>β (beta)</source>
        <translation>β スピン</translation>
    </message>
    <message>
        <source>The spin whose HOMO and LUMO the buttons draw (open shells)</source>
        <translation>HOMO・LUMO ボタンで描くスピン（開殻）</translation>
    </message>
    <message>
        <source>#</source>
        <translation>番号</translation>
    </message>
    <message>
        <source>Save the orbital or density on its grid as a Gaussian cube file</source>
        <translation>軌道または電子密度を格子上の値として Gaussian cube ファイルに保存します</translation>
    </message>
    <message>
        <source>Spin</source>
        <translation>スピン</translation>
    </message>
    <message>
        <source>Energy (Eh)</source>
        <translation>エネルギー（Eh）</translation>
    </message>
    <message>
        <source>Energy (eV)</source>
        <translation>エネルギー（eV）</translation>
    </message>
    <message>
        <source>Occupation</source>
        <translation>占有数</translation>
    </message>
    <message>
        <source>Surface:</source>
        <translation>表示する面:</translation>
    </message>
    <message>
        <source>Isovalue:</source>
        <translation>等値面の値:</translation>
    </message>
    <message>
        <source>Selected orbital</source>
        <translation>選択した軌道</translation>
    </message>
    <message>
        <source>Total density</source>
        <translation>全電子密度</translation>
    </message>
    <message>
        <source>Spin density (α − β)</source>
        <translation>スピン密度（α − β）</translation>
    </message>
    <message>
        <source>Electrostatic potential on the density</source>
        <translation>電子密度面上の静電ポテンシャル</translation>
    </message>
    <message>
        <source>What Show draws: the selected orbital, the electron density, the spin density of an open shell, or the electrostatic potential coloured on the density surface (red negative, blue positive)</source>
        <translation>「表示」で描くもの: 選択した軌道、電子密度、開殻のスピン密度、または電子密度面を静電ポテンシャルで色分けした面（赤が負、青が正）</translation>
    </message>
    <message>
        <source>Isovalue of the density surface (e/bohr³); a spin density is drawn at both signs</source>
        <translation>密度の等値面の値（e/bohr³）。スピン密度は正と負の両方を描きます</translation>
    </message>
    <message>
        <source>restricted</source>
        <translation>制限</translation>
    </message>
    <message>
        <source>alpha</source>
        <translation>α スピン</translation>
    </message>
    <message>
        <source>beta</source>
        <translation>β スピン</translation>
    </message>
    <message>
        <source>These orbitals are a closed shell: the spin density is zero everywhere.</source>
        <translation>この軌道は閉殻です。スピン密度はどこでも 0 です。</translation>
    </message>
    <message>
        <source>The file gives no orbital an occupation: there is no density to draw.</source>
        <translation>このファイルには占有数のある軌道がありません。描く電子密度がありません。</translation>
    </message>
    <message>
        <source>No surface at the isovalue %1: the values stay below it everywhere; give a lower isovalue.</source>
        <translation>等値面の値 %1 では面がありません（どこでもこの値より小さい値です）。もっと小さい値を指定してください。</translation>
    </message>
    <message>
        <source>Spin density: blue where alpha electrons are in excess, red where beta are; ∫(ρα − ρβ) = %1 on the grid (2S = %2).</source>
        <translation>スピン密度: 青は α 電子が多い所、赤は β 電子が多い所です。格子上の ∫(ρα − ρβ) = %1（2S = %2）。</translation>
    </message>
    <message>
        <source>Electrostatic potential on the %1 e/bohr³ density surface: %2 to %3 hartree/e (red negative, blue positive; the colours end at ±%4).</source>
        <translation>%1 e/bohr³ の電子密度面上の静電ポテンシャル: %2 〜 %3 hartree/e（赤が負、青が正。色は ±%4 で最も濃くなります）。</translation>
    </message>
    <message>
        <source>Total density: ∫ρ = %1 electrons on the grid (the orbitals hold %2).</source>
        <translation>全電子密度: 格子上の ∫ρ = %1 電子（軌道の電子数は %2）。</translation>
    </message>
    <message>
        <source>The isovalue must be a number between 0 and 10, written with a point (e.g. 0.05).</source>
        <translation>等値面の値は 0 より大きく 10 未満の数を小数点で書いてください（例: 0.05）。</translation>
    </message>
    <message>
        <source>Export orbital</source>
        <translation>軌道を書き出す</translation>
    </message>
    <message>
        <source>Gaussian cube files (*.cube)</source>
        <translation>Gaussian cube ファイル (*.cube)</translation>
    </message>
    <message>
        <source>Saved %1</source>
        <translation>%1 を保存しました</translation>
    </message>
</context>
<context>
    <name>PreferencesDialog</name>
    <message>
        <source>Preferences</source>
        <translation>環境設定</translation>
    </message>
    <message>
        <source>System language</source>
        <translation>システムの言語</translation>
    </message>
    <message>
        <source>A new display language is applied at once.</source>
        <translation>表示言語の変更はすぐに反映されます。</translation>
    </message>
    <message>
        <source>MOLFORMA_LANGUAGE=%1 is set and takes precedence over this choice.</source>
        <translation>環境変数 MOLFORMA_LANGUAGE=%1 が設定されているため、そちらが優先されます。</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>参照…</translation>
    </message>
    <message>
        <source>Variable</source>
        <translation>変数</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>値</translation>
    </message>
    <message>
        <source>Add</source>
        <translation>追加</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>削除</translation>
    </message>
    <message>
        <source>The executable, launcher and environment below are trusted: the headless server (molforma --mcp) runs NWChem only with them, and MCP clients cannot change them.</source>
        <translation>以下の実行ファイル・ランチャー・環境変数は信頼済みの値です。画面なしのサーバー（molforma --mcp）はこの値でだけNWChemを実行し、MCPクライアントからは変更できません。</translation>
    </message>
    <message>
        <source>Display language:</source>
        <translation>表示言語 / Language:</translation>
    </message>
    <message>
        <source>Default NWChem executable:</source>
        <translation>既定のNWChem実行ファイル:</translation>
    </message>
    <message>
        <source>Default MPI launcher:</source>
        <translation>既定のMPIランチャー:</translation>
    </message>
    <message>
        <source>Default environment:</source>
        <translation>既定の環境変数:</translation>
    </message>
    <message>
        <source>OK</source>
        <translation>OK</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>キャンセル</translation>
    </message>
    <message>
        <source>General</source>
        <translation>一般</translation>
    </message>
    <message>
        <source>Cluster profiles</source>
        <translation>クラスタープロファイル</translation>
    </message>
    <message>
        <source>Profile</source>
        <translation>プロファイル</translation>
    </message>
    <message>
        <source>Name:</source>
        <translation>名前:</translation>
    </message>
    <message>
        <source>SSH host (alias):</source>
        <translation>SSH ホスト（別名）:</translation>
    </message>
    <message>
        <source>a Host of your ssh_config, or user@host</source>
        <translation>ssh_config の Host、または user@host</translation>
    </message>
    <message>
        <source>ssh_config file:</source>
        <translation>ssh_config ファイル:</translation>
    </message>
    <message>
        <source>(your ~/.ssh/config)</source>
        <translation>（あなたの ~/.ssh/config）</translation>
    </message>
    <message>
        <source>Remote folder:</source>
        <translation>リモートフォルダー:</translation>
    </message>
    <message>
        <source>e.g. /scratch/you/molforma-jobs or ~/molforma-jobs</source>
        <translation>例: /scratch/you/molforma-jobs または ~/molforma-jobs</translation>
    </message>
    <message>
        <source>Partition:</source>
        <translation>パーティション:</translation>
    </message>
    <message>
        <source>(cluster default)</source>
        <translation>（クラスターの既定）</translation>
    </message>
    <message>
        <source>Account:</source>
        <translation>アカウント:</translation>
    </message>
    <message>
        <source>(default)</source>
        <translation>（既定）</translation>
    </message>
    <message>
        <source>QoS:</source>
        <translation>QoS:</translation>
    </message>
    <message>
        <source>Environment lines:</source>
        <translation>環境設定行:</translation>
    </message>
    <message>
        <source>one per line, e.g. module load nwchem</source>
        <translation>1 行に 1 つ。例: module load nwchem</translation>
    </message>
    <message>
        <source>NWChem command:</source>
        <translation>NWChem コマンド:</translation>
    </message>
    <message>
        <source>MPI launcher:</source>
        <translation>MPIランチャー:</translation>
    </message>
    <message>
        <source>Test connection</source>
        <translation>接続テスト</translation>
    </message>
    <message>
        <source>Connect with ssh as MolForma will (never asking for a password or accepting an unknown host key) and list the cluster&apos;s partitions with sinfo</source>
        <translation>MolForma と同じ方法で ssh 接続し（パスワードを尋ねることも未知のホスト鍵を受け入れることもありません）、sinfo でクラスターのパーティションを一覧します</translation>
    </message>
    <message>
        <source>A profile runs the calculation as a SLURM batch job on a cluster you reach with ssh; choose it in the Execution tab. Authentication is your own ssh set-up (keys, agent): MolForma stores no password and never accepts an unknown host key. MCP clients may choose a profile but never create or change one.</source>
        <translation>プロファイルは、ssh で接続するクラスターで計算を SLURM バッチジョブとして実行します。実行タブで選んでください。認証はあなた自身の ssh の設定（鍵、エージェント）で行い、MolForma はパスワードを保存せず、未知のホスト鍵を受け入れることもありません。MCP クライアントはプロファイルを選べますが、作成や変更はできません。</translation>
    </message>
    <message>
        <source>Another profile is already called %1.</source>
        <translation>%1 という名前のプロファイルはすでにあります。</translation>
    </message>
    <message>
        <source>Cluster profile %1: %2</source>
        <translation>クラスタープロファイル %1: %2</translation>
    </message>
    <message>
        <source>Connecting to %1…</source>
        <translation>%1 に接続しています…</translation>
    </message>
    <message>
        <source>Not reachable: %1</source>
        <translation>接続できません: %1</translation>
    </message>
    <message>
        <source> (default)</source>
        <translation>（既定）</translation>
    </message>
    <message>
        <source>Reachable. Partitions: %1</source>
        <translation>接続できました。パーティション: %1</translation>
    </message>
    <message>
        <source>(none)</source>
        <translation>（なし）</translation>
    </message>
    <message>
        <source>Choose a program</source>
        <translation>プログラムを選択</translation>
    </message>
    <message>
        <source>All files (*)</source>
        <translation>すべてのファイル (*)</translation>
    </message>
    <message>
        <source>Give the NWChem executable (for example nwchem).</source>
        <translation>NWChemの実行ファイルを指定してください（例: nwchem）。</translation>
    </message>
    <message>
        <source>Give the MPI launcher (for example mpirun).</source>
        <translation>MPIランチャーを指定してください（例: mpirun）。</translation>
    </message>
    <message>
        <source>A variable has a value but no name.</source>
        <translation>値があるのに名前のない変数があります。</translation>
    </message>
    <message>
        <source>Not a valid variable name: %1</source>
        <translation>変数名として正しくありません: %1</translation>
    </message>
    <message>
        <source>Variable given twice: %1</source>
        <translation>変数が重複しています: %1</translation>
    </message>
    <message>
        <source>Cannot save the preferences: %1</source>
        <translation>環境設定を保存できません: %1</translation>
    </message>
</context>
<context>
    <name>ResultsPanel</name>
    <message>
        <source>Show charges</source>
        <translation>電荷を表示</translation>
    </message>
    <message>
        <source>Label each atom with its Mulliken charge</source>
        <translation>各原子にMulliken電荷を表示します</translation>
    </message>
    <message>
        <source>Orbital</source>
        <translation>軌道</translation>
    </message>
    <message>
        <source>Spin</source>
        <translation>スピン</translation>
    </message>
    <message>
        <source>Energy (Eh)</source>
        <translation>エネルギー（Eh）</translation>
    </message>
    <message>
        <source>Energy (eV)</source>
        <translation>エネルギー（eV）</translation>
    </message>
    <message>
        <source>Occupation</source>
        <translation>占有数</translation>
    </message>
    <message>
        <source>Symmetry</source>
        <translation>対称性</translation>
    </message>
    <message>
        <source>UV-Vis spectrum</source>
        <translation>UV-Visスペクトル</translation>
    </message>
    <message>
        <source>Orbital energies</source>
        <translation>軌道エネルギー</translation>
    </message>
    <message>
        <source>FAILED: %1</source>
        <translation>失敗: %1</translation>
    </message>
    <message>
        <source>Charge: %1, multiplicity: %2</source>
        <translation>電荷: %1、多重度: %2</translation>
    </message>
    <message>
        <source>&lt;S²&gt;: %1 (S(S+1) = %2)</source>
        <translation>&lt;S²&gt;: %1（S(S+1) = %2）</translation>
    </message>
    <message>
        <source>spin contaminated (more than 10 % off)</source>
        <translation>スピン汚染あり（10 %を超えるずれ）</translation>
    </message>
    <message>
        <source>HOMO %1 Eh, LUMO %2 Eh, gap %3 eV</source>
        <translation>HOMO %1 Eh、LUMO %2 Eh、ギャップ %3 eV</translation>
    </message>
    <message>
        <source>Dispersion energy: %1 Eh</source>
        <translation>分散エネルギー: %1 Eh</translation>
    </message>
    <message>
        <source>Dipole: %1 D (%2)</source>
        <translation>双極子: %1 D（%2）</translation>
    </message>
    <message>
        <source>Thermochemistry at %1 K:</source>
        <translation>%1 K での熱化学:</translation>
    </message>
    <message>
        <source>enthalpy</source>
        <translation>エンタルピー</translation>
    </message>
    <message>
        <source>Gibbs free energy</source>
        <translation>ギブズ自由エネルギー</translation>
    </message>
    <message>
        <source>H correction</source>
        <translation>H 補正</translation>
    </message>
    <message>
        <source>G correction</source>
        <translation>G 補正</translation>
    </message>
    <message>
        <source>Excited states: %1</source>
        <translation>励起状態: %1</translation>
    </message>
    <message>
        <source>BOMD steps: %1</source>
        <translation>BOMD ステップ数: %1</translation>
    </message>
    <message>
        <source>restricted</source>
        <translation>制限</translation>
    </message>
    <message>
        <source>alpha</source>
        <translation>α スピン</translation>
    </message>
    <message>
        <source>beta</source>
        <translation>β スピン</translation>
    </message>
    <message>
        <source>Export UV-Vis spectrum</source>
        <translation>UV-Visスペクトルを書き出す</translation>
    </message>
    <message>
        <source>frame %1</source>
        <translation>フレーム %1</translation>
    </message>
    <message>
        <source>step %1</source>
        <translation>ステップ %1</translation>
    </message>
    <message>
        <source>atoms</source>
        <translation>原子</translation>
    </message>
    <message>
        <source>reference</source>
        <translation>参照</translation>
    </message>
    <message>
        <source>geometry</source>
        <translation>構造</translation>
    </message>
    <message>
        <source>final</source>
        <translation>最終</translation>
    </message>
    <message>
        <source>input</source>
        <translation>入力</translation>
    </message>
    <message>
        <source>Translation or rotation (left out of the IR spectrum)</source>
        <translation>並進または回転（IRスペクトルには含めません）</translation>
    </message>
    <message>
        <source>NWChem output, MOLDEN, XYZ</source>
        <translation>NWChem出力・MOLDEN・XYZ</translation>
    </message>
    <message>
        <source>All files (*)</source>
        <translation>すべてのファイル (*)</translation>
    </message>
    <message>
        <source>Open file…</source>
        <translation>ファイルを開く…</translation>
    </message>
    <message>
        <source>Open folder…</source>
        <translation>フォルダを開く…</translation>
    </message>
    <message>
        <source>Reload</source>
        <translation>再読込</translation>
    </message>
    <message>
        <source>File</source>
        <translation>ファイル</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>種類</translation>
    </message>
    <message>
        <source>Play</source>
        <translation>再生</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>Amplitude:</source>
        <translation>振幅:</translation>
    </message>
    <message>
        <source>Structure:</source>
        <translation>構造:</translation>
    </message>
    <message>
        <source>Show spins</source>
        <translation>スピンを表示</translation>
    </message>
    <message>
        <source>Label each atom with its Mulliken spin population (alpha minus beta electrons; open shells)</source>
        <translation>各原子にMullikenスピン密度（α 電子数 − β 電子数、開殻）を表示します</translation>
    </message>
    <message>
        <source>Mode</source>
        <translation>モード</translation>
    </message>
    <message>
        <source>Frequency (cm⁻¹)</source>
        <translation>振動数（cm⁻¹）</translation>
    </message>
    <message>
        <source>IR (km/mol)</source>
        <translation>IR（km/mol）</translation>
    </message>
    <message>
        <source>Imaginary</source>
        <translation>虚振動</translation>
    </message>
    <message>
        <source>Significant</source>
        <translation>有意</translation>
    </message>
    <message>
        <source>Displacements</source>
        <translation>変位</translation>
    </message>
    <message>
        <source>Energy per step</source>
        <translation>ステップごとのエネルギー</translation>
    </message>
    <message>
        <source>IR spectrum</source>
        <translation>IRスペクトル</translation>
    </message>
    <message>
        <source>Loading %1 …</source>
        <translation>%1 を読み込み中…</translation>
    </message>
    <message>
        <source>Loading cancelled; the previous results stay.</source>
        <translation>読込を中止しました。前の結果をそのまま表示します。</translation>
    </message>
    <message>
        <source>Cannot load: %1</source>
        <translation>読み込めません: %1</translation>
    </message>
    <message>
        <source>Open results</source>
        <translation>結果を開く</translation>
    </message>
    <message>
        <source>Open a job folder</source>
        <translation>ジョブフォルダを開く</translation>
    </message>
    <message>
        <source>NWChem output</source>
        <translation>NWChem出力</translation>
    </message>
    <message>
        <source>MOLDEN</source>
        <translation>MOLDEN</translation>
    </message>
    <message>
        <source>XYZ</source>
        <translation>XYZ</translation>
    </message>
    <message>
        <source>Vibration animation</source>
        <translation>振動アニメーション</translation>
    </message>
    <message>
        <source>Vibration animations (by mode)</source>
        <translation>振動アニメーション（モード別）</translation>
    </message>
    <message>
        <source>Mode %1 (%2 steps)</source>
        <translation>モード %1（%2 ステップ）</translation>
    </message>
    <message>
        <source>No results loaded.</source>
        <translation>結果が読み込まれていません。</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>はい</translation>
    </message>
    <message>
        <source>no</source>
        <translation>いいえ</translation>
    </message>
    <message>
        <source>n/a</source>
        <translation>—</translation>
    </message>
    <message>
        <source>Source: %1</source>
        <translation>読込元: %1</translation>
    </message>
    <message>
        <source>Program: %1</source>
        <translation>プログラム: %1</translation>
    </message>
    <message>
        <source>Formula: %1 (%2 atoms)</source>
        <translation>組成式: %1（%2 原子）</translation>
    </message>
    <message>
        <source>Final energy: %1 Eh (%2)</source>
        <translation>最終エネルギー: %1 Eh（%2）</translation>
    </message>
    <message>
        <source>Zero-point energy: %1 Eh</source>
        <translation>ゼロ点エネルギー: %1 Eh</translation>
    </message>
    <message>
        <source>SCF converged: %1</source>
        <translation>SCF収束: %1</translation>
    </message>
    <message>
        <source>Optimisation converged: %1 (%2 steps)</source>
        <translation>構造最適化の収束: %1（%2 ステップ）</translation>
    </message>
    <message>
        <source>Run completed: %1</source>
        <translation>計算の完了: %1</translation>
    </message>
    <message>
        <source>Structures: %1, energies: %2, modes: %3</source>
        <translation>構造: %1、エネルギー: %2、振動モード: %3</translation>
    </message>
    <message>
        <source>Imaginary modes: %1 (significant, below −10 cm⁻¹: %2)</source>
        <translation>虚振動: %1（−10 cm⁻¹未満の有意なもの: %2）</translation>
    </message>
    <message>
        <source>Warnings: %1, errors: %2</source>
        <translation>警告: %1、エラー: %2</translation>
    </message>
    <message>
        <source>%1 dipole: %2 D (%3)</source>
        <translation>%1 の双極子: %2 D（%3）</translation>
    </message>
    <message>
        <source>%1 polarizability</source>
        <translation>%1 の分極率</translation>
    </message>
    <message>
        <source>Polarizability</source>
        <translation>分極率</translation>
    </message>
    <message>
        <source>%1 (ω = %2 a.u.): isotropic %3 a.u.</source>
        <translation>%1（ω = %2 a.u.）: 等方平均 %3 a.u.</translation>
    </message>
    <message>
        <source>Orbitals and charges: the %1 wavefunction&apos;s (the final energy is %2)</source>
        <translation>軌道と電荷: %1 の波動関数によるもの（最終エネルギーは %2）</translation>
    </message>
    <message>
        <source>α (alpha)</source>
        <translation>α スピン</translation>
    </message>
    <message>
        <source>β (beta)</source>
        <translation>β スピン</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <source>SCF</source>
        <translation>SCF</translation>
    </message>
    <message>
        <source>DFT</source>
        <translation>DFT</translation>
    </message>
    <message>
        <source>MP2</source>
        <translation>MP2</translation>
    </message>
    <message>
        <source>CCSD</source>
        <translation>CCSD</translation>
    </message>
    <message>
        <source>CCSD(T)</source>
        <translation>CCSD(T)</translation>
    </message>
    <message>
        <source>Mode %1: %2 cm⁻¹</source>
        <translation>モード %1: %2 cm⁻¹</translation>
    </message>
    <message>
        <source>PNG images (*.png)</source>
        <translation>PNG画像 (*.png)</translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation>CSVファイル (*.csv)</translation>
    </message>
    <message>
        <source>Export IR spectrum</source>
        <translation>IRスペクトルを書き出す</translation>
    </message>
    <message>
        <source>Saved %1</source>
        <translation>%1 を保存しました</translation>
    </message>
    <message>
        <source>Orbitals</source>
        <translation>分子軌道</translation>
    </message>
    <message>
        <source>Use this structure</source>
        <translation>この構造を使う</translation>
    </message>
    <message>
        <source>Put the structure chosen on the slider (the final one unless you move it) into the editor as a candidate; the atoms keep their ids when the elements match</source>
        <translation>スライダーで選んだ構造（動かさなければ最終構造）を候補としてエディタに入れます。元素が一致すれば原子の ID は保たれます</translation>
    </message>
    <message>
        <source>Cannot use the structure: %1</source>
        <translation>構造を使えません: %1</translation>
    </message>
    <message>
        <source>Structure %1 is a candidate in the Molecule tab: confirm or cancel it there.</source>
        <translation>構造 %1 を分子タブの候補にしました。そこで確定または取り消してください。</translation>
    </message>
    <message>
        <source>Arrows</source>
        <translation>矢印</translation>
    </message>
    <message>
        <source>Show the displacement of each atom in the selected mode as an arrow, still or while the mode plays</source>
        <translation>選んだモードでの各原子の変位を矢印で表示します（静止中も再生中も）</translation>
    </message>
</context>
<context>
    <name>ScanProfileWidget</name>
    <message>
        <source>Distance (Å)</source>
        <translation>距離 (Å)</translation>
    </message>
    <message>
        <source>Angle (°)</source>
        <translation>角度 (°)</translation>
    </message>
    <message>
        <source>Dihedral (°)</source>
        <translation>二面角 (°)</translation>
    </message>
    <message>
        <source>Scanned coordinate</source>
        <translation>スキャンした座標</translation>
    </message>
    <message>
        <source>No scan: open the results of a relaxed scan (Molecule tab, Scan this coordinate).</source>
        <translation>スキャンがありません。緩和スキャンの結果を開いてください（分子タブの「この座標をスキャン」）。</translation>
    </message>
    <message>
        <source>Relative energy (kcal/mol)</source>
        <translation>相対エネルギー (kcal/mol)</translation>
    </message>
    <message>
        <source>Export CSV…</source>
        <translation>CSVを書き出す…</translation>
    </message>
    <message>
        <source>The scan&apos;s points; choose one to show its optimised structure</source>
        <translation>スキャンの各点。選ぶと最適化された構造を表示します</translation>
    </message>
    <message>
        <source>Save the scan&apos;s points as CSV</source>
        <translation>スキャンの各点を CSV に保存します</translation>
    </message>
    <message>
        <source>Energy of each optimised point above the lowest one</source>
        <translation>最も低い点を基準にした、最適化した各点のエネルギー</translation>
    </message>
    <message>
        <source>Point</source>
        <translation>点</translation>
    </message>
    <message>
        <source>Energy (Eh)</source>
        <translation>エネルギー (Eh)</translation>
    </message>
    <message>
        <source>ΔE (kcal/mol)</source>
        <translation>相対エネルギー ΔE (kcal/mol)</translation>
    </message>
    <message>
        <source>Converged</source>
        <translation>収束</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>はい</translation>
    </message>
    <message>
        <source>no</source>
        <translation>いいえ</translation>
    </message>
    <message>
        <source>Scan profile</source>
        <translation>スキャン曲線</translation>
    </message>
    <message>
        <source>Export scan profile</source>
        <translation>スキャン曲線を書き出す</translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation>CSVファイル (*.csv)</translation>
    </message>
    <message>
        <source>Saved %1</source>
        <translation>%1 を保存しました</translation>
    </message>
</context>
<context>
    <name>UVVisSpectrumWidget</name>
    <message>
        <source>Wavelength (nm)</source>
        <translation>波長（nm）</translation>
    </message>
    <message>
        <source>Oscillator strength</source>
        <translation>振動子強度</translation>
    </message>
    <message>
        <source>Width (FWHM, eV):</source>
        <translation>幅（半値全幅、eV）:</translation>
    </message>
    <message>
        <source>Export PNG…</source>
        <translation>PNGを書き出す…</translation>
    </message>
    <message>
        <source>Export CSV…</source>
        <translation>CSVを書き出す…</translation>
    </message>
    <message>
        <source>No excitations: open the results of a TDDFT or CIS calculation.</source>
        <translation>励起状態はありません。TDDFT か CIS 計算の結果を開いてください。</translation>
    </message>
</context>
</TS>
