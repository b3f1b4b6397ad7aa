<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="ja_JP">
<context>
    <name>AtomTableModel</name>
    <message>
        <source>%1, atom id %2</source>
        <translation>%1、原子ID %2</translation>
    </message>
    <message>
        <source>The atom&apos;s stable id (what files and MCP tools name); the row header is the label measurements use</source>
        <translation>原子の固定ID(ファイルと MCP ツールが使う名前)。行見出しは測定が使うラベルです</translation>
    </message>
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
    <name>ConstraintEditor</name>
    <message>
        <source>Fix this coordinate</source>
        <translation>この座標を固定</translation>
    </message>
    <message>
        <source>Hold the selected distance, angle or dihedral at its current value during optimisations (an NWChem zcoord constraint)</source>
        <translation>選択した距離・角度・二面角を、構造最適化の間いまの値に保ちます（NWChem の zcoord 拘束）</translation>
    </message>
    <message>
        <source>Remove constraints</source>
        <translation>拘束を削除</translation>
    </message>
    <message>
        <source>Remove every coordinate constraint and the scan</source>
        <translation>座標の拘束とスキャンをすべて削除します</translation>
    </message>
    <message>
        <source>Scan to:</source>
        <translation>スキャン終了値:</translation>
    </message>
    <message>
        <source>The scan&apos;s end value (Å or degrees, C locale: 1.25); it starts at the current value</source>
        <translation>スキャンの終了値（Å または度、小数点は 1.25 のように）。開始値はいまの値です</translation>
    </message>
    <message>
        <source>Steps:</source>
        <translation>ステップ数:</translation>
    </message>
    <message>
        <source>Steps of the scan: it optimises steps + 1 points from the current value to the end value</source>
        <translation>スキャンのステップ数。いまの値から終了値までの ステップ数 + 1 点を最適化します</translation>
    </message>
    <message>
        <source>Scan this coordinate</source>
        <translation>この座標をスキャン</translation>
    </message>
    <message>
        <source>A relaxed scan of the selected distance, angle or dihedral: one constrained optimisation per point, each from the previous point&apos;s structure (after a planar dihedral, from the molecule as drawn); sets the task to optimize, the profile appears in Results</source>
        <translation>選択した距離・角度・二面角の緩和スキャン。各点で拘束付き構造最適化を行い、前の点の構造から始めます（平面の二面角の後は描いた分子から）。タスクを optimize にし、エネルギー曲線は結果タブに表示されます</translation>
    </message>
    <message>
        <source>Constraints and the scan the next optimisation uses</source>
        <translation>次の構造最適化で使う拘束とスキャン</translation>
    </message>
    <message>
        <source>Fixed: %1 = %2</source>
        <translation>固定: %1 = %2</translation>
    </message>
    <message>
        <source>Scan: %1 from %2 to %3 %4 in %5 steps</source>
        <translation>スキャン: %1 を %2 から %3 %4 まで %5 ステップ</translation>
    </message>
    <message>
        <source>Select 2, 3 or 4 atoms first.</source>
        <translation>先に 2・3・4 個の原子を選択してください。</translation>
    </message>
    <message>
        <source>%1 is held during optimisations</source>
        <translation>%1 を構造最適化の間固定します</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not a number (write it as 1.25).</source>
        <translation>「%1」は数値ではありません（1.25 のように書いてください）。</translation>
    </message>
    <message>
        <source>Scan of %1 set: run the calculation to optimise each point</source>
        <translation>%1 のスキャンを設定しました。計算を実行すると各点を最適化します</translation>
    </message>
    <message>
        <source>Constraints removed</source>
        <translation>拘束を削除しました</translation>
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
        <source>CML file</source>
        <translation>CML ファイル</translation>
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
        <source>Choose a file name ending in one of: %1.</source>
        <translation>次のいずれかで終わるファイル名を選んでください: %1。</translation>
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
        <source>Add-atom tool, typed into the 3D view: a letter chooses that element (C, N, O, H, S, P, F, I, B …); a second letter within 1 s makes a two-letter symbol (C then l: Cl, B then r: Br). F there is fluorine, not Fit to View.</source>
        <translation>原子追加ツールで3Dビューに入力: 1文字でその元素を選択（C、N、O、H、S、P、F、I、B …）。1秒以内の2文字目で2文字の元素記号（C のあと l: Cl、B のあと r: Br）。ここでの F はフッ素で、全体表示ではありません。</translation>
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
    <message numerus="yes">
        <source>%n calculation(s) still running here will be stopped (recorded as cancelled):</source>
        <translation>
            <numerusform>実行中の計算 %n 件を停止します（取り消しとして記録されます）:</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n batch job(s) on the cluster keep running; a later MolForma finds them again in History:</source>
        <translation>
            <numerusform>クラスタ上のバッチジョブ %n 件は実行を続けます。次に起動した MolForma の履歴で再び見つかります:</numerusform>
        </translation>
    </message>
    <message>
        <source>Stop and quit</source>
        <translation>停止して終了</translation>
    </message>
    <message>
        <source>Quit</source>
        <translation>終了</translation>
    </message>
    <message>
        <source>Calculation running</source>
        <translation>計算を実行中</translation>
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
        <source>Undo %1</source>
        <translation>元に戻す: %1</translation>
    </message>
    <message>
        <source>Redo %1</source>
        <translation>やり直し: %1</translation>
    </message>
    <message>
        <source>Draw: click empty space to add an atom, an atom to attach one, a hydrogen to turn it into the element, a bond to cycle its order 1→2→3; drag from an atom to draw a bonded atom (from empty space: two), onto another atom to bond them; middle drag turns the view. Type an element in the view: C, N, O, H, S, P, F, I, B; Cl = C then l, Br = B then r (within 1 s)</source>
        <translation>描画: 空いた場所をクリックで原子を追加、原子をクリックで結合した原子を追加、水素をクリックでその元素に置換、結合をクリックで結合次数を 1→2→3 と切り替え。原子からドラッグで結合した原子を描画（空いた場所からは2原子）、別の原子までドラッグで結合。中ボタンのドラッグで回転。ビューで元素記号を入力: C, N, O, H, S, P, F, I, B。Cl は C のあと l、Br は B のあと r（1秒以内）</translation>
    </message>
    <message>
        <source>Click an atom to place the chosen fragment on its next free site; the next click confirms it (on the same atom it only confirms)</source>
        <translation>原子をクリックすると選んだフラグメントを次の空きサイトに配置。次のクリックで確定（同じ原子のクリックは確定のみ）</translation>
    </message>
    <message>
        <source>Click atoms to select them (Ctrl or Shift adds); drag from empty space to select with a box; right-click for actions</source>
        <translation>原子をクリックして選択（Ctrl または Shift で追加）。空いた場所からドラッグすると矩形で選択。右クリックで操作メニュー</translation>
    </message>
    <message>
        <source>The element the Add atom tool places; click to choose it in the periodic table</source>
        <translation>原子追加ツールで置く元素。クリックすると周期表から選べます</translation>
    </message>
    <message>
        <source>Show or hide the periodic table, fragments and ligands (F9)</source>
        <translation>周期表・フラグメント・配位子のパレットを表示／非表示（F9）</translation>
    </message>
    <message>
        <source>Select all, none, the inverse, whole fragments or every atom of an element</source>
        <translation>すべて・なし・反転・フラグメント全体・元素ごとに選択</translation>
    </message>
    <message>
        <source>All atoms</source>
        <translation>すべての原子</translation>
    </message>
    <message>
        <source>None</source>
        <translation>なし</translation>
    </message>
    <message>
        <source>Invert selection</source>
        <translation>選択を反転</translation>
    </message>
    <message>
        <source>Whole fragments of the selection</source>
        <translation>選択を含むフラグメント全体</translation>
    </message>
    <message>
        <source>By element</source>
        <translation>元素で選択</translation>
    </message>
    <message>
        <source>Labels:</source>
        <translation>ラベル:</translation>
    </message>
    <message>
        <source>Element and number</source>
        <translation>元素と番号</translation>
    </message>
    <message>
        <source>Formal charge</source>
        <translation>形式電荷</translation>
    </message>
    <message>
        <source>Atom name</source>
        <translation>原子名</translation>
    </message>
    <message>
        <source>Text drawn beside every atom in the 3D view</source>
        <translation>3D表示で各原子の横に表示する文字</translation>
    </message>
    <message>
        <source>Layout:</source>
        <translation>レイアウト:</translation>
    </message>
    <message>
        <source>Show the 3D view, the coordinate table or both</source>
        <translation>3D表示・座標表・両方を切り替え</translation>
    </message>
    <message>
        <source>Make 3D coordinates from the SMILES (a candidate to confirm or cancel)</source>
        <translation>SMILES から3D座標を作成（確定または取り消す候補になります）</translation>
    </message>
    <message>
        <source>Stop the running SMILES or clean-up work; the molecule stays as it was</source>
        <translation>実行中の SMILES 変換・構造整形を中止。分子は元のまま</translation>
    </message>
    <message>
        <source>Progress of the running work</source>
        <translation>実行中の処理の進み具合</translation>
    </message>
    <message>
        <source>e.g. CCO or ethanol, then Enter</source>
        <translation>例: CCO や エタノール と入力して Enter</translation>
    </message>
    <message>
        <source>Replace the atoms and bonds from a structure file, keeping every calculation setting</source>
        <translation>構造ファイルから原子と結合を置き換え（計算設定はそのまま）</translation>
    </message>
    <message>
        <source>Accept the candidate as one undo step</source>
        <translation>候補を1つの取り消し単位として確定</translation>
    </message>
    <message>
        <source>Drop the candidate; nothing changes</source>
        <translation>候補を破棄（何も変わりません）</translation>
    </message>
    <message>
        <source>Set</source>
        <translation>設定</translation>
    </message>
    <message>
        <source>A SMILES string, or a common name (water, DMSO, benzene, glycine, 水, ベンゼン …); Enter makes a 3D candidate with hydrogens</source>
        <translation>SMILES 文字列、または一般的な分子名（水、ジメチルスルホキシド、ベンゼン、グリシン、略称も可 …）。Enter で水素付きの3D候補を作成</translation>
    </message>
    <message>
        <source>What a click or drag of the Add-atom tool does where the pointer is</source>
        <translation>ポインタの位置で原子追加ツールのクリックやドラッグが行うこと</translation>
    </message>
    <message>
        <source>Set the distance, angle or dihedral of the 2, 3 or 4 selected atoms, moving the smaller fragment</source>
        <translation>選択した 2・3・4 原子の距離・角度・二面角を設定（小さい側のフラグメントを動かします）</translation>
    </message>
    <message>
        <source>The new value (Å or degrees, C locale: 1.25)</source>
        <translation>新しい値（Å または度。小数点はピリオド: 1.25）</translation>
    </message>
    <message>
        <source>Keep measurement</source>
        <translation>測定を残す</translation>
    </message>
    <message>
        <source>Keep the measurement of the selected atoms in the view and the list</source>
        <translation>選択した原子の測定を3D表示と一覧に残す</translation>
    </message>
    <message>
        <source>Clear measurements</source>
        <translation>測定を消去</translation>
    </message>
    <message>
        <source>Remove every kept measurement</source>
        <translation>残した測定をすべて消去</translation>
    </message>
    <message>
        <source>Kept measurements; double-click one to select its atoms</source>
        <translation>残した測定。ダブルクリックでその原子を選択</translation>
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
        <source>Make 3D</source>
        <translation>3D化</translation>
    </message>
    <message>
        <source>Clean up geometry</source>
        <translation>構造を整える</translation>
    </message>
    <message>
        <source>Relax the structure with a force field (MMFF94, else UFF); fixed atoms stay; the result is a candidate to confirm or cancel</source>
        <translation>力場（MMFF94、なければ UFF）で構造を緩和。固定原子は動きません。結果は確定または取り消す候補になります</translation>
    </message>
    <message>
        <source>Adjust hydrogens</source>
        <translation>水素を自動調整</translation>
    </message>
    <message>
        <source>Adding, erasing or changing atoms and bond orders keeps every touched atom filled with the hydrogens its valence leaves open</source>
        <translation>原子の追加・削除・変更や結合次数の変更のたびに、関係した原子の空いた原子価を水素で埋め直します</translation>
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
        <source>Distance (Å):</source>
        <translation>距離 (Å):</translation>
    </message>
    <message>
        <source>Angle (°):</source>
        <translation>角度 (°):</translation>
    </message>
    <message>
        <source>Dihedral (°):</source>
        <translation>二面角 (°):</translation>
    </message>
    <message>
        <source>Select 2–4 atoms</source>
        <translation>2〜4 原子を選択</translation>
    </message>
    <message>
        <source>Select 2, 3 or 4 atoms first.</source>
        <translation>先に 2・3・4 個の原子を選択してください。</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not a number (write it as 1.25).</source>
        <translation>「%1」は数値ではありません（1.25 のように書いてください）。</translation>
    </message>
    <message>
        <source>%1 set to %2</source>
        <translation>%1 を %2 に設定しました</translation>
    </message>
    <message>
        <source>Impossible valence (ringed red): %1</source>
        <translation>ありえない原子価（赤い輪）: %1</translation>
    </message>
    <message>
        <source>This atom is already H: choose another element to change it.</source>
        <translation>この原子はすでに H です。置き換えるには別の元素を選んでください。</translation>
    </message>
    <message>
        <source>%1 and %2 are bonded already: click the bond to change its order.</source>
        <translation>%1 と %2 はすでに結合しています。結合次数を変えるには結合をクリックしてください。</translation>
    </message>
    <message>
        <source>Bond %1 is now of order %2.</source>
        <translation>結合 %1 の次数を %2 にしました。</translation>
    </message>
    <message>
        <source>Drag: draw a bonded %1</source>
        <translation>ドラッグ: 結合した %1 を描画</translation>
    </message>
    <message>
        <source>Click: change H to %1</source>
        <translation>クリック: H を %1 に置換</translation>
    </message>
    <message>
        <source>Click: attach a %1</source>
        <translation>クリック: %1 を結合</translation>
    </message>
    <message>
        <source>Click: bond order %1</source>
        <translation>クリック: 結合次数 %1</translation>
    </message>
    <message>
        <source>Click: add a %1</source>
        <translation>クリック: %1 を追加</translation>
    </message>
    <message>
        <source>Drag: draw two bonded %1</source>
        <translation>ドラッグ: 結合した %1 を2つ描画</translation>
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
        <source>Placement confirmed.</source>
        <translation>配置を確定しました。</translation>
    </message>
    <message>
        <source>Confirm or cancel the current candidate first.</source>
        <translation>先に現在の候補を確定または取り消してください。</translation>
    </message>
    <message>
        <source>There are no atoms to copy.</source>
        <translation>コピーする原子がありません。</translation>
    </message>
    <message>
        <source>Copied %1 atom(s) as XYZ.</source>
        <translation>%1 個の原子を XYZ としてコピーしました。</translation>
    </message>
    <message>
        <source>Delete %1</source>
        <translation>%1 を削除</translation>
    </message>
    <message>
        <source>%1 atoms</source>
        <translation>%1 個の原子</translation>
    </message>
    <message>
        <source>Delete the atoms with their bonds</source>
        <translation>原子を結合ごと削除</translation>
    </message>
    <message>
        <source>Set element</source>
        <translation>元素を変更</translation>
    </message>
    <message>
        <source>Make the atoms %1</source>
        <translation>原子を %1 にする</translation>
    </message>
    <message>
        <source>Unfix</source>
        <translation>固定を解除</translation>
    </message>
    <message>
        <source>Fix</source>
        <translation>固定</translation>
    </message>
    <message>
        <source>Fixed atoms never move (clean-up, geometry edits, optimisation)</source>
        <translation>固定した原子は動きません（構造整形・幾何編集・最適化）</translation>
    </message>
    <message>
        <source>Measure</source>
        <translation>測定</translation>
    </message>
    <message>
        <source>Keep the distance, angle or dihedral of the 2–4 selected atoms</source>
        <translation>選択した 2〜4 原子の距離・角度・二面角を残す</translation>
    </message>
    <message>
        <source>Select fragment</source>
        <translation>フラグメントを選択</translation>
    </message>
    <message>
        <source>Select every atom bonded, directly or not, to this one</source>
        <translation>この原子と直接・間接に結合したすべての原子を選択</translation>
    </message>
    <message>
        <source>Select all %1</source>
        <translation>すべての %1 を選択</translation>
    </message>
    <message>
        <source>Select every atom of this element</source>
        <translation>この元素の原子をすべて選択</translation>
    </message>
    <message>
        <source>Select residue %1</source>
        <translation>残基 %1 を選択</translation>
    </message>
    <message>
        <source>Select every atom of this atom&apos;s residue</source>
        <translation>この原子の残基の原子をすべて選択します</translation>
    </message>
    <message>
        <source>Select chain %1</source>
        <translation>鎖 %1 を選択</translation>
    </message>
    <message>
        <source>Select every atom of this atom&apos;s chain</source>
        <translation>この原子の鎖の原子をすべて選択します</translation>
    </message>
    <message>
        <source>Single bond</source>
        <translation>単結合</translation>
    </message>
    <message>
        <source>Double bond</source>
        <translation>二重結合</translation>
    </message>
    <message>
        <source>Triple bond</source>
        <translation>三重結合</translation>
    </message>
    <message>
        <source>Set the bond order (hydrogens follow when Adjust hydrogens is on)</source>
        <translation>結合次数を設定（水素の自動調整がオンなら水素も追従）</translation>
    </message>
    <message>
        <source>Delete bond</source>
        <translation>結合を削除</translation>
    </message>
    <message>
        <source>Remove the bond, keep the atoms</source>
        <translation>結合を削除し、原子は残す</translation>
    </message>
    <message>
        <source>Keep the length of this bond</source>
        <translation>この結合の長さを残す</translation>
    </message>
    <message>
        <source>Select all</source>
        <translation>すべて選択</translation>
    </message>
    <message>
        <source>Select every atom</source>
        <translation>すべての原子を選択</translation>
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
        <source>%1 (SMILES %2)</source>
        <translation>%1（SMILES %2）</translation>
    </message>
    <message>
        <source>Making 3D coordinates for %1…</source>
        <translation>%1 の3D座標を生成しています…</translation>
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
        <source>Cleaning up the geometry: %1 of at most %2 iterations, energy %3 kcal/mol</source>
        <translation>構造を整えています: %1 / 最大 %2 反復、エネルギー %3 kcal/mol</translation>
    </message>
    <message>
        <source>Cleaning up the geometry: setting up the force field…</source>
        <translation>構造を整えています: 力場を準備中…</translation>
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
    <message>
        <source>3D structure of %1 ready: confirm or cancel the candidate.</source>
        <translation>%1 の3D構造ができました。候補を確定または取り消してください。</translation>
    </message>
    <message>
        <source>Selection</source>
        <translation>選択範囲</translation>
    </message>
    <message>
        <source>%1 is not a metal: ligand %2 normally binds to a metal. Cancel the candidate and click the metal, or choose it under &quot;Place on&quot;.</source>
        <translation>%1 は金属ではありません。配位子 %2 は普通は金属に結合します。候補を取り消して金属をクリックするか、「配置先」で金属を選んでください。</translation>
    </message>
    <message>
        <source>Placing %1 gives %2 an impossible valence (ringed red). Cancel the candidate to undo it.</source>
        <translation>%1 を置くと %2 の原子価があり得ない値になります（赤い輪）。取り消すには候補を取り消してください。</translation>
    </message>
    <message>
        <source>Place on:</source>
        <translation>配置先:</translation>
    </message>
    <message>
        <source>The metal to place the chosen ligand on, also when its ligands hide it in the view</source>
        <translation>選んだ配位子を置く金属（ビューで配位子に隠れていても選べます）</translation>
    </message>
    <message>
        <source>Place</source>
        <translation>配置</translation>
    </message>
    <message>
        <source>Place the chosen fragment or ligand on this metal</source>
        <translation>選んだフラグメントか配位子をこの金属に置きます</translation>
    </message>
    <message>
        <source>Whole residues of the selection</source>
        <translation>選択範囲の残基全体</translation>
    </message>
    <message>
        <source>Select every atom of the residues (PDB) the selected atoms belong to</source>
        <translation>選択した原子が属する残基（PDB）の原子をすべて選択します</translation>
    </message>
    <message>
        <source>Whole chains of the selection</source>
        <translation>選択範囲の鎖全体</translation>
    </message>
    <message>
        <source>Select every atom of the chains (PDB) the selected atoms belong to</source>
        <translation>選択した原子が属する鎖（PDB）の原子をすべて選択します</translation>
    </message>
    <message>
        <source>Within the radius of the selection</source>
        <translation>選択範囲から半径以内</translation>
    </message>
    <message>
        <source>Add every atom within the radius of a selected atom (whole residues when checked)</source>
        <translation>選択した原子から半径以内の原子をすべて加えます（チェック時は残基全体）</translation>
    </message>
    <message>
        <source>Extract QM region</source>
        <translation>QM 領域を切り出す</translation>
    </message>
    <message>
        <source>Keep only the selected atoms, cap each cut bond with a hydrogen, set the charge from the residues, then open the Calculation tab</source>
        <translation>選択した原子だけを残し、切れた結合を水素でキャップし、残基から電荷を設定して、計算タブを開きます</translation>
    </message>
    <message>
        <source>Residues and QM region</source>
        <translation>残基と QM 領域</translation>
    </message>
    <message>
        <source>Residues</source>
        <translation>残基</translation>
    </message>
    <message>
        <source>Chains</source>
        <translation>鎖</translation>
    </message>
    <message>
        <source>Select within</source>
        <translation>半径内を選択</translation>
    </message>
    <message>
        <source>Radius:</source>
        <translation>半径:</translation>
    </message>
    <message>
        <source>Distance for &apos;Within the radius of the selection&apos;</source>
        <translation>「選択範囲から半径以内」の距離</translation>
    </message>
    <message>
        <source>Whole residues</source>
        <translation>残基全体</translation>
    </message>
    <message>
        <source>Grow the atoms found within the radius to whole residues</source>
        <translation>半径以内に見つかった原子を残基全体に広げます</translation>
    </message>
    <message>
        <source>Fix caps</source>
        <translation>キャップを固定</translation>
    </message>
    <message>
        <source>Fix the capping hydrogens of an extracted QM region (they do not move in an optimisation)</source>
        <translation>切り出した QM 領域のキャップ水素を固定します（最適化で動きません）</translation>
    </message>
    <message>
        <source>%1 atom(s) selected.</source>
        <translation>%1 個の原子を選択しました。</translation>
    </message>
    <message>
        <source>These atoms have no residues (residues come from PDB files).</source>
        <translation>これらの原子には残基がありません（残基は PDB ファイルから読み込まれます）。</translation>
    </message>
    <message>
        <source>Select atoms first.</source>
        <translation>先に原子を選択してください。</translation>
    </message>
    <message>
        <source>QM region: %1 atoms, %2 cap hydrogen(s), charge %3.</source>
        <translation>QM 領域: 原子 %1 個、キャップ水素 %2 個、電荷 %3。</translation>
    </message>
</context>
<context>
    <name>MoleculeView</name>
    <message>
        <source>%1 atoms: drawn as dots without bonds (no OpenGL)</source>
        <translation>原子 %1 個：OpenGL がないため、結合なしの点で表示しています</translation>
    </message>
</context>
<context>
    <name>PartsPalette</name>
    <message>
        <source>Element for the Add tool:</source>
        <translation>原子追加ツールの元素:</translation>
    </message>
    <message>
        <source>Rings (Place tool):</source>
        <translation>環（配置ツール）:</translation>
    </message>
    <message>
        <source>Ring templates (3- to 8-rings, benzene, pyridine, furan, thiophene, pyrrole, naphthalene): choose one, then click an atom with the Place tool</source>
        <translation>環のテンプレート（3〜8員環、ベンゼン、ピリジン、フラン、チオフェン、ピロール、ナフタレン）。選んでから配置ツールで原子をクリックします</translation>
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
    <message>
        <source>Element symbol of the selected atoms</source>
        <translation>選択した原子の元素記号</translation>
    </message>
    <message>
        <source>Formal charge of the selected atoms</source>
        <translation>選択した原子の形式電荷</translation>
    </message>
    <message>
        <source>Unpaired electrons of the selected atoms</source>
        <translation>選択した原子の不対電子数</translation>
    </message>
    <message>
        <source>A name for the atom (at most 16 characters)</source>
        <translation>原子の名前（16 文字まで）</translation>
    </message>
    <message>
        <source>Isotope by mass number; natural when 0</source>
        <translation>質量数で指定する同位体。0 なら天然存在比</translation>
    </message>
    <message>
        <source>An arbitrary atomic mass in u (overrides the isotope)</source>
        <translation>任意の原子質量 (u)。同位体より優先</translation>
    </message>
    <message>
        <source>Fixed atoms never move</source>
        <translation>固定した原子は動きません</translation>
    </message>
    <message>
        <source>Apply these values to the selected atoms (one undo step)</source>
        <translation>選択した原子にこの値を適用（1 回の取り消し単位）</translation>
    </message>
    <message>
        <source>The molecule&apos;s title (used in file names and the NWChem input)</source>
        <translation>分子のタイトル（ファイル名や NWChem 入力に使われます）</translation>
    </message>
    <message>
        <source>Total charge of the molecule</source>
        <translation>分子全体の電荷</translation>
    </message>
    <message>
        <source>Spin multiplicity 2S+1</source>
        <translation>スピン多重度 2S+1</translation>
    </message>
    <message>
        <source>Apply title, charge and multiplicity</source>
        <translation>タイトル・電荷・多重度を適用</translation>
    </message>
    <message>
        <source>%1 atoms, %2, formal charge sum %3</source>
        <translation>%1 原子、%2、形式電荷の合計 %3</translation>
    </message>
    <message>
        <source>%1 (mixed)</source>
        <translation>%1（混在）</translation>
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
    <message>
        <source>(no title)</source>
        <translation>（タイトルなし）</translation>
    </message>
    <message>
        <source>%1. %2 — %3, %4 atoms</source>
        <translation>%1. %2 — %3、原子 %4 個</translation>
    </message>
    <message>
        <source>The records of the file: title, formula and atom count; choose the one to read</source>
        <translation>ファイル内のレコード（タイトル、組成式、原子数）。読み込むものを選んでください</translation>
    </message>
    <message>
        <source>SD field</source>
        <translation>SD フィールド</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>値</translation>
    </message>
    <message>
        <source>The SD data fields of the chosen record</source>
        <translation>選んだレコードの SD データフィールド</translation>
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
        <source>&amp;Copy Atoms as XYZ</source>
        <translation>原子を XYZ としてコピー(&amp;C)</translation>
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
    <name>steps</name>
    <message>
        <source>Add atoms</source>
        <translation>原子の追加</translation>
    </message>
    <message>
        <source>Change element</source>
        <translation>元素の変更</translation>
    </message>
    <message>
        <source>Delete atoms</source>
        <translation>原子の削除</translation>
    </message>
    <message>
        <source>Move atoms</source>
        <translation>原子の移動</translation>
    </message>
    <message>
        <source>Set atom properties</source>
        <translation>原子の属性変更</translation>
    </message>
    <message>
        <source>Set bonds</source>
        <translation>結合の変更</translation>
    </message>
    <message>
        <source>Set internal coordinate</source>
        <translation>内部座標の設定</translation>
    </message>
    <message>
        <source>Add hydrogens</source>
        <translation>水素の付加</translation>
    </message>
    <message>
        <source>Load structure</source>
        <translation>構造の読み込み</translation>
    </message>
    <message>
        <source>Structure from SMILES</source>
        <translation>SMILES からの構造</translation>
    </message>
    <message>
        <source>Set molecule</source>
        <translation>分子の設定</translation>
    </message>
    <message>
        <source>Load project</source>
        <translation>プロジェクトの読み込み</translation>
    </message>
    <message>
        <source>Confirm</source>
        <translation>確定</translation>
    </message>
    <message>
        <source>Extract QM region</source>
        <translation>QM 領域の切り出し</translation>
    </message>
</context>
</TS>
