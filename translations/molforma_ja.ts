<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="ja_JP">
<context>
    <name>AtomTableModel</name>
    <message>
        <source>ID</source>
        <translation>ID</translation>
    </message>
    <message>
        <source>Element</source>
        <translation>元素</translation>
    </message>
    <message>
        <source>X (Å)</source>
        <translation>X (Å)</translation>
    </message>
    <message>
        <source>Y (Å)</source>
        <translation>Y (Å)</translation>
    </message>
    <message>
        <source>Z (Å)</source>
        <translation>Z (Å)</translation>
    </message>
    <message>
        <source>Fixed</source>
        <translation>固定</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>2 Calculation</source>
        <translation>2 計算条件</translation>
    </message>
    <message>
        <source>3 Execution</source>
        <translation>3 実行</translation>
    </message>
    <message>
        <source>Results</source>
        <translation>結果</translation>
    </message>
    <message>
        <source>History</source>
        <translation>履歴</translation>
    </message>
    <message>
        <source>XYZ file</source>
        <translation>XYZ ファイル</translation>
    </message>
    <message>
        <source>MDL Molfile</source>
        <translation>MDL Molfile</translation>
    </message>
    <message>
        <source>SD file</source>
        <translation>SD ファイル</translation>
    </message>
    <message>
        <source>PDB file</source>
        <translation>PDB ファイル</translation>
    </message>
    <message>
        <source>NWChem input</source>
        <translation>NWChem 入力</translation>
    </message>
    <message>
        <source>MolForma project</source>
        <translation>MolForma プロジェクト</translation>
    </message>
    <message>
        <source>1 Molecule</source>
        <translation>1 分子</translation>
    </message>
    <message>
        <source>This part of MolForma is not available in this build.</source>
        <translation>この機能はこのビルドでは利用できません。</translation>
    </message>
    <message numerus="yes">
        <source>%1 — %n atom(s)</source>
        <translation>
            <numerusform>%1 — %n 原子</numerusform>
        </translation>
    </message>
    <message>
        <source>No atoms yet</source>
        <translation>原子はまだありません</translation>
    </message>
    <message>
        <source>candidate %1</source>
        <translation>候補 %1</translation>
    </message>
    <message>
        <source>Untitled</source>
        <translation>無題</translation>
    </message>
    <message>
        <source>Save</source>
        <translation>保存</translation>
    </message>
    <message>
        <source>Discard</source>
        <translation>破棄</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>キャンセル</translation>
    </message>
    <message>
        <source>Unsaved changes</source>
        <translation>未保存の変更</translation>
    </message>
    <message>
        <source>The project has unsaved changes. Save them first?</source>
        <translation>プロジェクトに未保存の変更があります。先に保存しますか？</translation>
    </message>
    <message>
        <source>Confirm or cancel the candidate before saving.</source>
        <translation>保存する前に候補を確定または取り消してください。</translation>
    </message>
    <message>
        <source>Molecules and projects</source>
        <translation>分子とプロジェクト</translation>
    </message>
    <message>
        <source>All files</source>
        <translation>すべてのファイル</translation>
    </message>
    <message>
        <source>Open</source>
        <translation>開く</translation>
    </message>
    <message>
        <source>Cannot open file</source>
        <translation>ファイルを開けません</translation>
    </message>
    <message>
        <source>Opened %1</source>
        <translation>%1 を開きました</translation>
    </message>
    <message>
        <source>Save Project As</source>
        <translation>名前を付けてプロジェクトを保存</translation>
    </message>
    <message>
        <source>Cannot save</source>
        <translation>保存できません</translation>
    </message>
    <message>
        <source>Saved %1</source>
        <translation>%1 を保存しました</translation>
    </message>
    <message>
        <source>Export</source>
        <translation>エクスポート</translation>
    </message>
    <message>
        <source>Choose a file name ending in .xyz, .mol, .sdf, .pdb, .nw or .molforma.json.</source>
        <translation>.xyz、.mol、.sdf、.pdb、.nw、.molforma.json のいずれかで終わるファイル名を選んでください。</translation>
    </message>
    <message>
        <source>Exported %1</source>
        <translation>%1 にエクスポートしました</translation>
    </message>
    <message>
        <source>Preferences</source>
        <translation>環境設定</translation>
    </message>
    <message>
        <source>About MolForma</source>
        <translation>MolForma について</translation>
    </message>
    <message>
        <source>MolForma %1 — molecular editor for quantum chemistry with NWChem and a built-in MCP server.</source>
        <translation>MolForma %1 — NWChem と MCP サーバーを内蔵した量子化学用の分子エディタ。</translation>
    </message>
    <message>
        <source>Keyboard Shortcuts</source>
        <translation>キーボードショートカット</translation>
    </message>
    <message>
        <source>Calculation results</source>
        <translation>計算結果</translation>
    </message>
    <message>
        <source>Opening %1 in Results</source>
        <translation>%1 を結果タブで開いています</translation>
    </message>
    <message>
        <source>Open &amp;Recent</source>
        <translation>最近使ったファイル(&amp;R)</translation>
    </message>
    <message>
        <source>Clear Recent Files</source>
        <translation>最近使ったファイルの一覧を消去</translation>
    </message>
    <message>
        <source>%1 no longer exists.</source>
        <translation>%1 はもうありません。</translation>
    </message>
</context>
<context>
    <name>MoleculeTab</name>
    <message>
        <source>Select</source>
        <translation>選択</translation>
    </message>
    <message>
        <source>Add atom</source>
        <translation>原子追加</translation>
    </message>
    <message>
        <source>Bond</source>
        <translation>結合</translation>
    </message>
    <message>
        <source>Erase</source>
        <translation>削除</translation>
    </message>
    <message>
        <source>Move</source>
        <translation>移動</translation>
    </message>
    <message>
        <source>Place fragment</source>
        <translation>フラグメント配置</translation>
    </message>
    <message>
        <source>Click atoms to select them (Ctrl or Shift adds)</source>
        <translation>原子をクリックして選択（Ctrl または Shift で追加選択）</translation>
    </message>
    <message>
        <source>Click empty space to add an atom, or an atom to attach one</source>
        <translation>空いた場所をクリックすると原子を追加、原子をクリックするとその原子に結合した原子を追加</translation>
    </message>
    <message>
        <source>Click two atoms to add a bond or change its order; Shift-click the second atom to remove the bond</source>
        <translation>2つの原子をクリックして結合を追加、または結合次数を変更。2つ目を Shift+クリックすると結合を削除</translation>
    </message>
    <message>
        <source>Click an atom to delete it with its bonds</source>
        <translation>原子をクリックすると結合ごと削除</translation>
    </message>
    <message>
        <source>Drag selected atoms to move them</source>
        <translation>選択した原子をドラッグして移動</translation>
    </message>
    <message>
        <source>Click an atom to place the chosen fragment on its next free site; the next click confirms it</source>
        <translation>原子をクリックすると選んだフラグメントを次の空きサイトに配置。次のクリックで確定</translation>
    </message>
    <message>
        <source>Element: %1</source>
        <translation>元素: %1</translation>
    </message>
    <message>
        <source>Parts palette</source>
        <translation>部品パレット</translation>
    </message>
    <message>
        <source>Undo</source>
        <translation>元に戻す</translation>
    </message>
    <message>
        <source>Redo</source>
        <translation>やり直し</translation>
    </message>
    <message>
        <source>Layout:</source>
        <translation>レイアウト:</translation>
    </message>
    <message>
        <source>View</source>
        <translation>3D表示</translation>
    </message>
    <message>
        <source>View and table</source>
        <translation>3D表示と表</translation>
    </message>
    <message>
        <source>Table</source>
        <translation>表</translation>
    </message>
    <message>
        <source>SMILES:</source>
        <translation>SMILES:</translation>
    </message>
    <message>
        <source>e.g. CCO, then Enter</source>
        <translation>例: CCO と入力して Enter</translation>
    </message>
    <message>
        <source>Make 3D</source>
        <translation>3D化</translation>
    </message>
    <message>
        <source>Clean up geometry</source>
        <translation>構造を整える</translation>
    </message>
    <message>
        <source>Add hydrogens</source>
        <translation>水素を付加</translation>
    </message>
    <message>
        <source>Fill open valences of the selected atoms (all atoms when none is selected)</source>
        <translation>選択した原子（選択がなければすべての原子）の空いた原子価を水素で埋める</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>中止</translation>
    </message>
    <message>
        <source>Load structure file…</source>
        <translation>構造ファイルを読み込む…</translation>
    </message>
    <message>
        <source>Confirm</source>
        <translation>確定</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取り消し</translation>
    </message>
    <message>
        <source>made by MCP</source>
        <translation>MCP が作成</translation>
    </message>
    <message>
        <source>yours</source>
        <translation>あなたが作成</translation>
    </message>
    <message>
        <source>Candidate (%1): confirm or cancel it. Other edits wait until then.</source>
        <translation>候補（%1）: 確定または取り消してください。それまで他の編集はできません。</translation>
    </message>
    <message>
        <source>Working… edits are refused until it ends.</source>
        <translation>処理中… 終わるまで編集はできません。</translation>
    </message>
    <message>
        <source>No candidate.</source>
        <translation>候補はありません。</translation>
    </message>
    <message>
        <source>Distance %1: %2 Å</source>
        <translation>距離 %1: %2 Å</translation>
    </message>
    <message>
        <source>Angle %1: %2°</source>
        <translation>角度 %1: %2°</translation>
    </message>
    <message>
        <source>Dihedral %1: %2°</source>
        <translation>二面角 %1: %2°</translation>
    </message>
    <message>
        <source>Now click the second atom (Shift-click removes the bond).</source>
        <translation>次に2つ目の原子をクリックしてください（Shift+クリックで結合を削除）。</translation>
    </message>
    <message>
        <source>Choose a fragment or ligand in the parts palette first.</source>
        <translation>先に部品パレットでフラグメントか配位子を選んでください。</translation>
    </message>
    <message>
        <source>Confirm or cancel the current candidate first.</source>
        <translation>先に現在の候補を確定または取り消してください。</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not a number.</source>
        <translation>「%1」は数値ではありません。</translation>
    </message>
    <message>
        <source>Load structure file</source>
        <translation>構造ファイルを読み込む</translation>
    </message>
    <message>
        <source>Structure files</source>
        <translation>構造ファイル</translation>
    </message>
    <message>
        <source>All files</source>
        <translation>すべてのファイル</translation>
    </message>
    <message>
        <source>Loaded %1</source>
        <translation>%1 を読み込みました</translation>
    </message>
    <message>
        <source>Type a SMILES string first.</source>
        <translation>先に SMILES を入力してください。</translation>
    </message>
    <message>
        <source>There are no atoms to clean up.</source>
        <translation>整える原子がありません。</translation>
    </message>
    <message>
        <source>Busy: wait for the running work or stop it.</source>
        <translation>処理中です。終わるまで待つか中止してください。</translation>
    </message>
    <message>
        <source>Stopped.</source>
        <translation>中止しました。</translation>
    </message>
    <message>
        <source>Cleaning up the geometry…</source>
        <translation>構造を整えています…</translation>
    </message>
    <message>
        <source>Making 3D coordinates…</source>
        <translation>3D座標を生成しています…</translation>
    </message>
    <message>
        <source>The geometry is already clean.</source>
        <translation>構造はすでに整っています。</translation>
    </message>
    <message>
        <source>Clean-up done: confirm or cancel the candidate.</source>
        <translation>整形が完了しました。候補を確定または取り消してください。</translation>
    </message>
    <message>
        <source>3D structure ready: confirm or cancel the candidate.</source>
        <translation>3D構造ができました。候補を確定または取り消してください。</translation>
    </message>
</context>
<context>
    <name>PartsPalette</name>
    <message>
        <source>Element for the Add tool:</source>
        <translation>原子追加ツールの元素:</translation>
    </message>
    <message>
        <source>Fragments (Place tool):</source>
        <translation>フラグメント（配置ツール）:</translation>
    </message>
    <message>
        <source>Ligands (Place tool):</source>
        <translation>配位子（配置ツール）:</translation>
    </message>
</context>
<context>
    <name>PropertyPanel</name>
    <message>
        <source>Selected atom</source>
        <translation>選択した原子</translation>
    </message>
    <message>
        <source>Element</source>
        <translation>元素</translation>
    </message>
    <message>
        <source>Formal charge</source>
        <translation>形式電荷</translation>
    </message>
    <message>
        <source>Unpaired electrons</source>
        <translation>不対電子</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名前</translation>
    </message>
    <message>
        <source>Isotope (mass number)</source>
        <translation>同位体（質量数）</translation>
    </message>
    <message>
        <source>Mass (u)</source>
        <translation>質量 (u)</translation>
    </message>
    <message>
        <source>Fixed</source>
        <translation>固定</translation>
    </message>
    <message>
        <source>natural</source>
        <translation>天然</translation>
    </message>
    <message>
        <source>from isotope</source>
        <translation>同位体から</translation>
    </message>
    <message>
        <source>Apply to atom</source>
        <translation>原子に適用</translation>
    </message>
    <message>
        <source>Molecule</source>
        <translation>分子</translation>
    </message>
    <message>
        <source>Title</source>
        <translation>タイトル</translation>
    </message>
    <message>
        <source>Charge</source>
        <translation>電荷</translation>
    </message>
    <message>
        <source>Multiplicity</source>
        <translation>多重度</translation>
    </message>
    <message>
        <source>Apply to molecule</source>
        <translation>分子に適用</translation>
    </message>
    <message numerus="yes">
        <source>%n selected atoms</source>
        <translation>
            <numerusform>%n 個の原子を選択</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>StructureChoiceDialog</name>
    <message>
        <source>Choose the structure to read</source>
        <translation>読み込む構造を選択</translation>
    </message>
    <message>
        <source>Model (of %1):</source>
        <translation>モデル（全 %1）:</translation>
    </message>
    <message>
        <source>Frame (of %1):</source>
        <translation>フレーム（全 %1）:</translation>
    </message>
    <message>
        <source>Alternate location:</source>
        <translation>代替位置（altloc）:</translation>
    </message>
    <message>
        <source>highest occupancy</source>
        <translation>占有率が最大のもの</translation>
    </message>
    <message>
        <source>Record (of %1):</source>
        <translation>レコード（全 %1 件中）:</translation>
    </message>
</context>
<context>
    <name>actions</name>
    <message>
        <source>&amp;New</source>
        <translation>新規(&amp;N)</translation>
    </message>
    <message>
        <source>&amp;Open…</source>
        <translation>開く(&amp;O)…</translation>
    </message>
    <message>
        <source>&amp;Save Project</source>
        <translation>プロジェクトを保存(&amp;S)</translation>
    </message>
    <message>
        <source>Save &amp;As…</source>
        <translation>名前を付けて保存(&amp;A)…</translation>
    </message>
    <message>
        <source>&amp;Load structure…</source>
        <translation>構造を読み込む(&amp;L)…</translation>
    </message>
    <message>
        <source>&amp;Export…</source>
        <translation>エクスポート(&amp;E)…</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>終了(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;Undo</source>
        <translation>元に戻す(&amp;U)</translation>
    </message>
    <message>
        <source>&amp;Redo</source>
        <translation>やり直し(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Confirm Candidate</source>
        <translation>候補を確定(&amp;C)</translation>
    </message>
    <message>
        <source>C&amp;ancel Candidate</source>
        <translation>候補を取り消す(&amp;A)</translation>
    </message>
    <message>
        <source>&amp;Delete Selected Atoms</source>
        <translation>選択した原子を削除(&amp;D)</translation>
    </message>
    <message>
        <source>Select &amp;All Atoms</source>
        <translation>すべての原子を選択(&amp;A)</translation>
    </message>
    <message>
        <source>&amp;Preferences…</source>
        <translation>環境設定(&amp;P)…</translation>
    </message>
    <message>
        <source>&amp;Fit to View</source>
        <translation>全体を表示(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Reset Orientation</source>
        <translation>向きをリセット(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Ball and Stick</source>
        <translation>ボール＆スティック(&amp;B)</translation>
    </message>
    <message>
        <source>&amp;Space Filling</source>
        <translation>空間充填(&amp;S)</translation>
    </message>
    <message>
        <source>S&amp;ticks</source>
        <translation>スティック(&amp;T)</translation>
    </message>
    <message>
        <source>Show &amp;Parts Palette</source>
        <translation>部品パレットを表示(&amp;P)</translation>
    </message>
    <message>
        <source>&amp;1 Molecule</source>
        <translation>&amp;1 分子</translation>
    </message>
    <message>
        <source>&amp;2 Calculation</source>
        <translation>&amp;2 計算条件</translation>
    </message>
    <message>
        <source>&amp;3 Execution</source>
        <translation>&amp;3 実行</translation>
    </message>
    <message>
        <source>&amp;Results</source>
        <translation>結果(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;History</source>
        <translation>履歴(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;Keyboard Shortcuts</source>
        <translation>キーボードショートカット(&amp;K)</translation>
    </message>
    <message>
        <source>&amp;About MolForma</source>
        <translation>MolForma について(&amp;A)</translation>
    </message>
</context>
<context>
    <name>menus</name>
    <message>
        <source>&amp;File</source>
        <translation>ファイル(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation>編集(&amp;E)</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>表示(&amp;V)</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>ヘルプ(&amp;H)</translation>
    </message>
</context>
<context>
    <name>QFileDialog</name>
    <message>
        <source>&amp;Look in:</source>
        <translation>場所(&amp;L):</translation>
    </message>
    <message>
        <source>Files of &amp;type:</source>
        <translation>ファイルの種類(&amp;T):</translation>
    </message>
</context>
</TS>
