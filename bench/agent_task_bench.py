"""A chemist's task as an MCP client runs it: round trips and bytes per step, before and after.

The real ``molforma --mcp`` (headless) is spoken to over stdio with raw JSON-RPC lines
(2026-07-28 era, Tasks extension declared), step by step, as an agent would do the work:

 1. start: ``server/discover``;
 2. ``tools/list`` (every page);
 3. ``list_documents`` (the document to work on);
 4. build aspirin: ``import_document`` format ``smiles`` when the version offers it (its
    format description names smiles), else the XYZ text of aspirin bundled here;
 5. confirm the candidate (``history`` confirm);
 6. clean-up: ``move_atoms`` ``cleanup`` when the version offers it (followed as a task;
    a refusal is counted and named), else skipped;
 7. ``set_nwchem``: B3LYP/6-31G* geometry optimisation;
 8. ``calculation`` start as a task, ``tasks/get`` every ``pollIntervalMs`` to its end;
 9. ``get_results`` summary (following the answer's advice when the results must be
    opened first: ``results_action`` open_directory as a task, then again);
10. use the optimised structure: ``results_action`` use_structure when offered, else the
    last structure of ``get_results`` structures put back with ``move_atoms`` positions;
11. ``save_file`` of the project;
12. ``export_document`` xyz.

Counted for each step: round trips (requests sent and answered, polls included), bytes
received and bytes sent (the JSON lines on the wire, newline included; notifications count
as bytes, not round trips), and wall time. The calculation runs the stand-in NWChem of the
tests (``tests/stand_in/fake_nwchem.py``, mode converge, 0.05 s a line): NWChem itself is
not what is measured.

"Before and after": the same task against a baseline revision (``--baseline``, default
802d8e4) checked out with ``git worktree add`` into a temporary folder (removed at the end),
run with this interpreter and ``PYTHONPATH`` on that worktree, alternately with this
checkout (A B A B), ``--repeat`` times after one warm-up pair. ``tools/list`` of
``--mcp-gui`` (offscreen) is measured for both revisions as its own row.

Usage: ``python bench/agent_task_bench.py [--repeat 5] [--baseline 802d8e4]``.
"""

from __future__ import annotations

import argparse
import contextlib
import itertools
import json
import os
import queue
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from harness import (
    ROOT,
    Comparison,
    Report,
    Side,
    Stats,
    add_output_argument,
    fmt_bytes,
    fmt_seconds,
)

BASELINE = "802d8e4"
MODERN = "2026-07-28"
TASKS = "io.modelcontextprotocol/tasks"
STAND_IN = ROOT / "tests" / "stand_in" / "fake_nwchem.py"
ASPIRIN_SMILES = "CC(=O)Oc1ccccc1C(=O)O"
# Aspirin from RDKit (ETKDG, seed 7, MMFF94), for versions that cannot build from SMILES.
ASPIRIN_XYZ = """21
aspirin
C      3.403773    0.554328    0.055171
C      2.043928    0.139118    0.531220
O      1.689379    0.144080    1.703130
O      1.288360   -0.265870   -0.563568
C     -0.028437   -0.584662   -0.218989
C     -0.328237   -1.942419   -0.067410
C     -1.628959   -2.330425    0.247766
C     -2.625932   -1.367087    0.398262
C     -2.326724   -0.011368    0.227262
C     -1.022044    0.396766   -0.091408
C     -0.703218    1.833352   -0.303091
O      0.360873    2.305193   -0.658958
O     -1.756333    2.637294   -0.059211
H      3.923900   -0.305428   -0.374101
H      3.984378    0.930016    0.902534
H      3.310878    1.356169   -0.681670
H      0.448981   -2.692201   -0.185748
H     -1.865912   -3.383598    0.378171
H     -3.640546   -1.670069    0.646979
H     -3.124400    0.719025    0.342852
H     -1.403708    3.537784   -0.218829
"""
# The tests' stand-in NWChem prints no geometry, so no results could be read from its output.
# This front prints what a results reader needs first (NWChem's banner and the input's
# geometry as an "Output coordinates" block, i.e. the optimised structure is the start),
# then becomes the stand-in itself (same process, same output file, same exit).
FRONT = r"""
import os, sys
NUMBERS = {"H": 1, "C": 6, "N": 7, "O": 8, "F": 9, "S": 16, "Cl": 17}
lines = open(sys.argv[-1], encoding="utf-8").read().splitlines()
start = next(i for i, l in enumerate(lines) if l.strip().lower().startswith("geometry"))
atoms = []
for l in lines[start + 1:]:
    if l.strip().lower() == "end":
        break
    w = l.split()
    if len(w) >= 4 and w[0].isalpha():
        atoms.append((w[0], *map(float, w[1:4])))
out = ["           Northwest Computational Chemistry Package (NWChem) 7.2.2", "",
       " Output coordinates in angstroms (scale by  1.889725989 to convert to a.u.)", "",
       "  No.       Tag          Charge          X              Y              Z",
       " ---- ---------------- ---------- -------------- -------------- --------------"]
out += [f"{i:5d} {e:16s} {NUMBERS.get(e, 0):10.4f} {x:14.8f} {y:14.8f} {z:14.8f}"
        for i, (e, x, y, z) in enumerate(atoms, 1)]
sys.stdout.write("\n".join(out) + "\n\n")
sys.stdout.flush()
os.execv(sys.executable, [sys.executable, os.environ["AGENT_BENCH_STAND_IN"], *sys.argv[1:]])
"""
NWCHEM_VALUES = {"task": "optimize", "theory": "dft", "functional": "b3lyp", "basis": "6-31g*"}
TERMINAL = ("completed", "failed", "cancelled")
# Steps in the order they run, with the words a row uses for each.
STEPS = [
    ("start", "start (server/discover)"),
    ("tools_list", "tools/list"),
    ("list_documents", "list_documents"),
    ("build", "build aspirin"),
    ("confirm", "confirm the candidate"),
    ("cleanup", "clean-up"),
    ("set_nwchem", "set_nwchem B3LYP/6-31G*"),
    ("calculation", "calculation start, followed to its end"),
    ("results", "get_results summary"),
    ("use_structure", "use the optimised structure"),
    ("save", "save_file"),
    ("export", "export_document xyz"),
]


class BenchError(RuntimeError):
    """The task could not go on (a call failed that the rest depends on)."""


# ---------------------------------------------------------------------------------------------
class Wire:
    """A stdio MCP server spoken to with raw JSON lines, every line counted.

    ``trips`` counts requests sent and answered (one request and its response are one round
    trip); ``sent`` and ``received`` count the bytes of every line written and read,
    newline included, notifications too. ``transcript`` keeps each line as
    ``(direction, bytes)`` with direction ``">"`` (sent) or ``"<"`` (received).
    """

    def __init__(
        self,
        argv: Sequence[str],
        env: dict[str, str],
        cwd: Path,
        *,
        modern_meta: dict[str, Any] | None = None,
        keep: bool = False,
    ) -> None:
        self.proc = subprocess.Popen(
            list(argv),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=env,
            cwd=cwd,
        )
        self.meta = modern_meta
        self.trips = 0
        self.sent = 0
        self.received = 0
        self.keep = keep
        self.transcript: list[tuple[str, bytes]] = []
        self._ids = itertools.count(1)
        self._lines: queue.Queue[bytes | None] = queue.Queue()
        self._err: list[bytes] = []
        self._threads = [
            threading.Thread(target=self._read, daemon=True),
            threading.Thread(target=self._read_err, daemon=True),
        ]
        for t in self._threads:
            t.start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self._lines.put(line)
        self._lines.put(None)

    def _read_err(self) -> None:
        assert self.proc.stderr is not None
        for chunk in iter(lambda: self.proc.stderr.read1(65536), b""):  # type: ignore[union-attr]
            self._err.append(chunk)

    @property
    def stderr(self) -> str:
        return b"".join(self._err).decode("utf-8", "replace")

    def _write(self, line: bytes) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line)
        self.proc.stdin.flush()
        self.sent += len(line)
        if self.keep:
            self.transcript.append((">", line))

    def _take(self, line: bytes) -> dict[str, Any]:
        self.received += len(line)
        if self.keep:
            self.transcript.append(("<", line))
        msg: dict[str, Any] = json.loads(line)
        return msg

    def request(
        self, method: str, params: dict[str, Any] | None = None, timeout: float = 120.0
    ) -> dict[str, Any]:
        """Send one request and return its response envelope (one round trip)."""
        rid = next(self._ids)
        p = dict(params or {})
        if self.meta is not None:
            p["_meta"] = {**self.meta, **p.get("_meta", {})}
        self._write(
            json.dumps(
                {"jsonrpc": "2.0", "id": rid, "method": method, "params": p}, ensure_ascii=False
            ).encode("utf-8")
            + b"\n"
        )
        self.trips += 1
        end = time.monotonic() + timeout
        while True:
            try:
                line = self._lines.get(timeout=max(0.01, end - time.monotonic()))
            except queue.Empty:
                raise BenchError(f"{method}: no answer in {timeout:.0f} s") from None
            if line is None:
                raise BenchError(f"{method}: the server closed stdout\n{self.stderr[-2000:]}")
            msg = self._take(line)
            if msg.get("id") == rid and ("result" in msg or "error" in msg):
                return msg
            if "method" in msg and "id" in msg:  # a request of the server's: none is expected
                raise BenchError(f"unexpected server request {msg['method']}")

    def drain(self) -> None:
        """Count lines that arrived after the last answer (notifications) to the step now."""
        while True:
            try:
                line = self._lines.get_nowait()
            except queue.Empty:
                return
            if line is None:
                self._lines.put(None)
                return
            self._take(line)

    def close(self, timeout: float = 15.0) -> int:
        if self.proc.stdin is not None and not self.proc.stdin.closed:
            with contextlib.suppress(BrokenPipeError):
                self.proc.stdin.close()
        try:
            return self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            return self.proc.wait()
        finally:
            for t in self._threads:
                t.join(5)
            for f in (self.proc.stdout, self.proc.stderr):
                if f is not None:
                    f.close()


@dataclass
class StepRecord:
    """What one step cost on the wire."""

    key: str
    trips: int = 0
    sent: int = 0
    received: int = 0
    seconds: float = 0.0
    note: str = ""
    skipped: bool = False


@dataclass
class Agent:
    """The client side of the task: its wire, its steps, and what it knows so far."""

    wire: Wire
    steps: list[StepRecord] = field(default_factory=list)
    tools: dict[str, Any] = field(default_factory=dict)
    doc_id: str = ""
    rev: str = ""

    @contextlib.contextmanager
    def step(self, key: str) -> Iterator[StepRecord]:
        """Count what the wire carries while the body runs, as step ``key``."""
        w = self.wire
        rec = StepRecord(key)
        trips, sent, received = w.trips, w.sent, w.received
        t0 = time.perf_counter()
        yield rec
        w.drain()
        rec.seconds = time.perf_counter() - t0
        rec.trips, rec.sent, rec.received = w.trips - trips, w.sent - sent, w.received - received
        self.steps.append(rec)

    # -- calls -----------------------------------------------------------------------------
    def result(self, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        msg = self.wire.request(method, params)
        if "error" in msg:
            raise BenchError(f"{method}: {msg['error']}")
        res: dict[str, Any] = msg["result"]
        return res

    def call(self, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
        """A tools/call followed to its end: a task is polled with tasks/get."""
        res = self.result("tools/call", {"name": name, "arguments": arguments})
        if res.get("resultType") == "task":
            res = self.follow(res)
        return res

    def follow(self, task: dict[str, Any]) -> dict[str, Any]:
        """Poll a task every pollIntervalMs until it ends; its CallToolResult."""
        interval = (task.get("pollIntervalMs") or 500) / 1000
        while task.get("status") not in TERMINAL:
            time.sleep(interval)
            task = self.result("tasks/get", {"taskId": task["taskId"]})
        if "result" not in task:  # ended at once: its result is fetched with tasks/get
            task = self.result("tasks/get", {"taskId": task["taskId"]})
        if task["status"] != "completed" or "result" not in task:
            raise BenchError(f"task ended {task['status']}: {task}")
        res: dict[str, Any] = task["result"]
        return res

    def ok(self, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
        """structuredContent of a call that must succeed (the revision is kept)."""
        res = self.call(name, arguments)
        if res.get("isError"):
            raise BenchError(f"{name}: {res.get('structuredContent') or res.get('content')}")
        sc: dict[str, Any] = res.get("structuredContent") or {}
        self._keep_revision(sc)
        return sc

    def _keep_revision(self, sc: dict[str, Any]) -> None:
        rev = sc.get("revision") or (sc.get("edit") or {}).get("revision")
        if isinstance(rev, str):
            self.rev = rev

    def edit_args(self, **more: Any) -> dict[str, Any]:
        return {"documentId": self.doc_id, "expectedRevision": self.rev, **more}

    # -- what a version offers -----------------------------------------------------------
    def props(self, tool: str) -> dict[str, Any]:
        schema = self.tools.get(tool, {}).get("inputSchema", {})
        props: dict[str, Any] = schema.get("properties", {})
        return props

    def offers_smiles(self) -> bool:
        fmt = self.props("import_document").get("format", {})
        return "smiles" in json.dumps(fmt).lower()

    def offers_cleanup(self) -> bool:
        return "cleanup" in self.props("move_atoms")

    def offers_use_structure(self) -> bool:
        return "use_structure" in self.props("results_action").get("action", {}).get("enum", [])


# ---------------------------------------------------------------------------------------------
def start_steps(agent: Agent) -> None:
    """Steps 1–3: discover, tools/list (every page), list_documents."""
    with agent.step("start"):
        found = agent.result("server/discover")
        if MODERN not in found.get("supportedVersions", []):
            raise BenchError(f"server/discover: {found}")
    with agent.step("tools_list") as rec:
        cursor: str | None = None
        while True:
            page = agent.result("tools/list", {"cursor": cursor} if cursor else {})
            agent.tools.update({t["name"]: t for t in page["tools"]})
            cursor = page.get("nextCursor")
            if not cursor:
                break
        rec.note = f"{len(agent.tools)} tools"
    with agent.step("list_documents"):
        doc = agent.ok("list_documents", {})["documents"][0]
        agent.doc_id, agent.rev = doc["documentId"], doc["revision"]


def chemist_task(agent: Agent, workdir: Path) -> None:
    """The whole task, step by step (see the module docstring)."""
    start_steps(agent)
    with agent.step("build") as rec:
        if agent.offers_smiles():
            agent.ok("import_document", agent.edit_args(format="smiles", text=ASPIRIN_SMILES))
            rec.note = "import_document smiles"
        else:
            agent.ok("import_document", agent.edit_args(format="xyz", text=ASPIRIN_XYZ))
            rec.note = "no SMILES headless: import_document of aspirin's XYZ text"
    with agent.step("confirm"):
        agent.ok("history", agent.edit_args(action="confirm"))
    with agent.step("cleanup") as rec:
        if not agent.offers_cleanup():
            rec.skipped, rec.note = True, "no headless clean-up in this version: skipped"
        else:
            res = agent.call("move_atoms", agent.edit_args(cleanup=True))
            sc = res.get("structuredContent") or {}
            if res.get("isError"):
                rec.note = f"refused: {sc.get('code')}"
            else:
                agent._keep_revision(sc)
                agent.ok("history", agent.edit_args(action="confirm"))
                rec.note = "move_atoms cleanup, then confirm"
    with agent.step("set_nwchem"):
        agent.ok("set_nwchem", agent.edit_args(values=NWCHEM_VALUES, preview=False))
    with agent.step("calculation") as rec:
        first = agent.result(
            "tools/call", {"name": "calculation", "arguments": agent.edit_args(action="start")}
        )
        if first.get("resultType") != "task":
            raise BenchError(f"calculation start is not a task: {first}")
        res = agent.follow(first)
        sc = res.get("structuredContent") or {}
        job = sc.get("jobDirectory")
        rec.note = (
            f"{sc.get('status')}{' (isError)' if res.get('isError') else ''}, polled with tasks/get"
        )
    with agent.step("results") as rec:
        res = agent.call("get_results", {"documentId": agent.doc_id, "section": "summary"})
        code = (res.get("structuredContent") or {}).get("code")
        if res.get("isError") and code in ("results_not_opened_yet", "results_none_loaded") and job:
            agent.call("results_action", agent.edit_args(action="open_directory", path=job))
            res = agent.call("get_results", {"documentId": agent.doc_id, "section": "summary"})
            rec.note = f"{code}: results_action open_directory first"
        summary = (res.get("structuredContent") or {}).get("summary") or {}
        if res.get("isError"):
            rec.note = ", ".join(
                filter(
                    None,
                    [
                        rec.note,
                        f"get_results refused: {(res.get('structuredContent') or {}).get('code')}",
                    ],
                )
            )
        elif "finalEnergy" in summary:
            rec.note = ", ".join(filter(None, [rec.note, f"final energy {summary['finalEnergy']}"]))
    with agent.step("use_structure") as rec:
        use_structure(agent, rec)
    with agent.step("save"):
        agent.ok(
            "save_file",
            {
                "documentId": agent.doc_id,
                "expectedRevision": agent.rev,
                "path": str(workdir / "aspirin.molforma.json"),
                "overwrite": False,
            },
        )
    with agent.step("export") as rec:
        text = agent.ok("export_document", {"documentId": agent.doc_id, "format": "xyz"})["text"]
        if not text.startswith("21\n"):
            raise BenchError(f"export_document xyz: {text[:200]!r}")


def use_structure(agent: Agent, rec: StepRecord) -> None:
    """Step 10: the optimised structure into the document (one action, or by hand)."""
    if agent.offers_use_structure():
        args = agent.edit_args(action="use_structure")
        if "preview" in agent.props("results_action"):
            args["preview"] = False
        res = agent.call("results_action", args)
        sc = res.get("structuredContent") or {}
        if res.get("isError"):
            rec.note = f"results_action use_structure refused: {sc.get('code')}"
        else:
            agent._keep_revision(sc)
            rec.note = "results_action use_structure"
        return
    res = agent.call("get_results", {"documentId": agent.doc_id, "section": "structures"})
    sc = res.get("structuredContent") or {}
    items = sc.get("items") or []
    if res.get("isError") or not items:
        rec.note = "no use_structure: get_results structures, " + (
            f"refused: {sc.get('code')}" if res.get("isError") else "none in the results"
        )
        return
    last = items[-1]
    if last.get("atoms") is None and sc.get("total", len(items)) > len(items):
        res = agent.call(
            "get_results",
            {
                "documentId": agent.doc_id,
                "section": "structures",
                "offset": sc["total"] - 1,
                "limit": 1,
            },
        )
        last = (res.get("structuredContent") or {}).get("items", [last])[-1]
    atoms = agent.ok("get_document", {"documentId": agent.doc_id, "include": ["project"]})[
        "project"
    ]["document"]["atoms"]
    coords = last.get("coordinates") or [a.get("position") for a in last.get("atoms", [])]
    if len(coords) != len(atoms):
        raise BenchError(f"structure of {len(coords)} atoms for a document of {len(atoms)}")
    positions = {a["id"]: list(xyz) for a, xyz in zip(atoms, coords, strict=True)}
    agent.ok("move_atoms", agent.edit_args(positions=positions, preview=False))
    rec.note = "no use_structure: get_results structures, get_document, move_atoms positions"


# ---------------------------------------------------------------------------------------------
@dataclass
class Revision:
    """One side of the comparison: a label and the folder its molforma is imported from."""

    label: str
    source: Path


def server_env(rev: Revision, config: Path, *, gui: bool = False) -> dict[str, str]:
    """Isolated Preferences trusting the stand-in NWChem, English, ``rev`` on the path."""
    config.mkdir(parents=True, exist_ok=True)
    front = config / "nwchem_front.py"
    front.write_text(FRONT, encoding="utf-8")
    (config / "preferences.json").write_text(
        json.dumps({"executable": f"{sys.executable} {front}"}), encoding="utf-8"
    )
    home = config.parent / "home"
    home.mkdir(exist_ok=True)
    env = dict(
        os.environ,
        MOLFORMA_CONFIG_DIR=str(config),
        MOLFORMA_LANGUAGE="en",
        HOME=str(home),
        PYTHONPATH=str(rev.source),
        FAKE_NWCHEM_MODE="converge",
        FAKE_NWCHEM_DELAY="0.05",
        AGENT_BENCH_STAND_IN=str(STAND_IN),
    )
    if gui:
        env.update(QT_QPA_PLATFORM="offscreen", MOLFORMA_RENDERER="painter")
    return env


def modern_meta() -> dict[str, Any]:
    return {
        "io.modelcontextprotocol/protocolVersion": MODERN,
        "io.modelcontextprotocol/clientCapabilities": {"extensions": {TASKS: {}}},
        "io.modelcontextprotocol/clientInfo": {"name": "agent-task-bench", "version": "1"},
    }


def spawn(rev: Revision, folder: Path, *, flag: str = "--mcp", keep: bool = False) -> Wire:
    """``python -m molforma FLAG`` of ``rev`` with a fresh configuration under ``folder``."""
    env = server_env(rev, folder / "config", gui=flag == "--mcp-gui")
    work = folder / "work"
    work.mkdir(exist_ok=True)
    return Wire(
        [sys.executable, "-m", "molforma", flag], env, work, modern_meta=modern_meta(), keep=keep
    )


def run_task(rev: Revision) -> list[StepRecord]:
    """The chemist's task once against ``rev``, in a fresh temporary folder."""
    with tempfile.TemporaryDirectory(prefix="molforma-agent-") as d:
        folder = Path(d)
        wire = spawn(rev, folder)
        agent = Agent(wire)
        try:
            chemist_task(agent, folder / "work")
        except BenchError as e:
            raise BenchError(f"{rev.label}: {e}\n{wire.stderr[-2000:]}") from None
        finally:
            wire.close()
        return agent.steps


def gui_tools_list_bytes(rev: Revision) -> int:
    """Bytes of the tools/list answer(s) of ``molforma --mcp-gui`` (offscreen)."""
    with tempfile.TemporaryDirectory(prefix="molforma-agent-gui-") as d:
        wire = spawn(rev, Path(d), flag="--mcp-gui")
        agent = Agent(wire)
        try:
            start_steps(agent)
        finally:
            wire.close(30)
        return next(s.received for s in agent.steps if s.key == "tools_list")


def imported_from(rev: Revision) -> Path:
    """The folder ``import molforma`` finds with ``rev``'s environment (checked, not assumed)."""
    with tempfile.TemporaryDirectory() as d:
        out = subprocess.run(
            [sys.executable, "-c", "import molforma; print(molforma.__file__)"],
            env=server_env(rev, Path(d) / "config"),
            cwd=d,
            check=True,
            capture_output=True,
            text=True,
        ).stdout.strip()
    return Path(out).resolve().parent.parent


@contextlib.contextmanager
def worktree(rev: str) -> Iterator[Path]:
    """``rev`` checked out with ``git worktree add`` in a temporary folder, removed at the end."""
    tmp = Path(tempfile.mkdtemp(prefix="molforma-baseline-"))
    path = tmp / "tree"
    subprocess.run(
        ["git", "-C", str(ROOT), "worktree", "add", "--detach", str(path), rev],
        check=True,
        capture_output=True,
    )
    try:
        yield path
    finally:
        subprocess.run(
            ["git", "-C", str(ROOT), "worktree", "remove", "--force", str(path)],
            check=False,
            capture_output=True,
        )
        shutil.rmtree(tmp, ignore_errors=True)
        subprocess.run(
            ["git", "-C", str(ROOT), "worktree", "prune"], check=False, capture_output=True
        )


# ---------------------------------------------------------------------------------------------
def _span(values: Sequence[float], fmt: Any = str) -> str:
    lo, mid, hi = min(values), statistics.median(values), max(values)
    return fmt(mid) if lo == hi else f"{fmt(mid)} ({fmt(lo)}–{fmt(hi)})"


def _int(x: float) -> str:
    return f"{x:.0f}"


def step_table(runs: list[list[StepRecord]]) -> list[dict[str, Any]]:
    """Per step: round trips, bytes received and sent, seconds, over runs (Stats each)."""
    out = []
    for i, (key, words) in enumerate(STEPS):
        recs = [run[i] for run in runs]
        assert all(r.key == key for r in recs)
        out.append(
            {
                "key": key,
                "step": words,
                "skipped": recs[0].skipped,
                "note": recs[0].note,
                **{
                    name: asdict(Stats.of([float(getattr(r, name)) for r in recs]))
                    for name in ("trips", "received", "sent", "seconds")
                },
            }
        )
    return out


def totals(runs: list[list[StepRecord]]) -> dict[str, list[float]]:
    return {
        name: [float(sum(getattr(s, name) for s in run)) for run in runs]
        for name in ("trips", "received", "sent", "seconds")
    }


def describe(rev: str, commit: str, dirty: bool) -> str:
    return f"{rev} ({commit}{' + uncommitted changes' if dirty else ''})"


def git(*args: str) -> str:
    return subprocess.run(
        ["git", "-C", str(ROOT), *args], check=True, capture_output=True, text=True
    ).stdout.strip()


def main(argv: list[str] | None = None) -> int:
    """Run the task on both revisions, print it and write bench/results/agent_task_bench.json."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5, help="measured runs per revision")
    ap.add_argument("--baseline", default=BASELINE, help="revision to compare with")
    add_output_argument(ap)
    args = ap.parse_args(argv)
    head = git("rev-parse", "--short", "HEAD")
    dirty = bool(git("status", "--porcelain", "--untracked-files=no", "--", "molforma"))
    base_commit = git("rev-parse", "--short", args.baseline)
    cand_label = f"now ({head}{' + working tree' if dirty else ''})"
    base_label = f"before ({base_commit})"
    command = (
        "python bench/agent_task_bench.py"
        + (f" --repeat {args.repeat}" if args.repeat != 5 else "")
        + (f" --baseline {args.baseline}" if args.baseline != BASELINE else "")
    )
    report = Report(
        "agent_task_bench",
        command,
        notes=[
            "agent_task_bench: a chemist's task over `molforma --mcp` with raw JSON-RPC lines "
            "(aspirin, B3LYP/6-31G* optimisation, results, optimised structure, save, export); "
            "round trips count request/response pairs, polls included; bytes are the JSON lines "
            "in both directions. NWChem is the tests' stand-in (tests/stand_in/fake_nwchem.py, "
            "after a few lines giving NWChem's banner and the input geometry, so its results "
            "can be read), so the calculation's own run is not what is measured."
        ],
    )
    with worktree(args.baseline) as tree:
        cand, base = Revision(cand_label, ROOT), Revision(base_label, tree)
        for rev in (cand, base):
            found = imported_from(rev)
            if found != rev.source.resolve():
                raise SystemExit(f"{rev.label}: molforma imported from {found}, not {rev.source}")
        runs: dict[str, list[list[StepRecord]]] = {"cand": [], "base": []}
        gui: dict[str, list[int]] = {"cand": [], "base": []}
        for i in range(1 + args.repeat):  # the first pair warms the page cache and is dropped
            for side, rev in (("cand", cand), ("base", base)):
                steps = run_task(rev)
                sys.stdout.write(
                    f"run {i} {rev.label}: {sum(s.trips for s in steps)} round "
                    f"trips, {fmt_bytes(sum(s.received + s.sent for s in steps))}, "
                    f"{fmt_seconds(sum(s.seconds for s in steps))}\n"
                )
                sys.stdout.flush()
                if i:
                    runs[side].append(steps)
        for _ in range(min(args.repeat, 3)):
            for side, rev in (("cand", cand), ("base", base)):
                gui[side].append(gui_tools_list_bytes(rev))
    write_rows(report, runs, gui, cand_label, base_label)
    report.write(args.out)
    return 0


def write_rows(
    report: Report,
    runs: dict[str, list[list[StepRecord]]],
    gui: dict[str, list[int]],
    cand_label: str,
    base_label: str,
) -> None:
    """The rows: per step, the whole task (bytes, then time), tools/list of --mcp-gui."""
    table = {side: step_table(runs[side]) for side in ("cand", "base")}
    sys.stdout.write(
        f"\n{'step':40s} {'round trips':>16s} {'received':>20s} {'sent':>16s} "
        f"{'wall: median (min–max)':>24s}\n"
    )
    for c, b in zip(table["cand"], table["base"], strict=True):
        for label, s in (("before", b), ("now", c)):
            sys.stdout.write(
                f"{(c['step'] if label == 'before' else ''):40s} {label:>6s} "
                f"{_span([s['trips']['min'], s['trips']['median'], s['trips']['max']], _int):>9s} "
                f"{fmt_bytes(s['received']['median']):>20s} {fmt_bytes(s['sent']['median']):>16s} "
                f"{_span([s['seconds'][k] for k in ('min', 'median', 'max')], fmt_seconds):>24s}"
                f"  {s['note']}\n"
            )
    varying = []
    for side, steps in table.items():
        for st in steps:
            t = st["trips"]
            lo, hi = (sum(st[n][m] for n in ("received", "sent")) for m in ("min", "max"))
            if t["min"] != t["max"] or lo != hi:
                who = "now" if side == "cand" else "before"
                varying.append(
                    f"{st['step']} ({who}): "
                    + (
                        f"{t['min']:.0f}–{t['max']:.0f} round trips, "
                        if t["min"] != t["max"]
                        else ""
                    )
                    + f"{fmt_bytes(lo)}–{fmt_bytes(hi)}"
                    + (f" ({hi - lo:.0f} B)" if hi - lo < 100 else "")
                )
    deterministic = not varying
    for c, b in zip(table["cand"], table["base"], strict=True):
        if c["skipped"] or b["skipped"]:
            continue
        cb = [r.received + r.sent for run in runs["cand"] for r in run if r.key == c["key"]]
        bb = [r.received + r.sent for run in runs["base"] for r in run if r.key == c["key"]]
        tool_list = c["key"] == "tools_list"
        row = report.add_bytes(
            f"step_{c['key']}",
            f"agent task, {c['step']}: bytes on the wire",
            cb,
            bb,
            candidate=cand_label,
            baseline=base_label,
            target="≤ 60 kB" if tool_list else "",
            met=c["received"]["median"] <= 60_000 if tool_list else None,
            note=step_note(c, b),
        )
        row["steps"] = {"candidate": c, "baseline": b}
    tc, tb = totals(runs["cand"]), totals(runs["base"])
    tl = {
        side: [float(r.received) for run in runs[side] for r in run if r.key == "tools_list"]
        for side in ("cand", "base")
    }
    share = {
        side: statistics.median(tl[side])
        / statistics.median([x + y for x, y in zip(tot["received"], tot["sent"], strict=True)])
        for side, tot in (("cand", tc), ("base", tb))
    }
    skipped = "; ".join(
        f"{c['step']}: {c['note']}"
        if c["skipped"] and b["skipped"] and c["note"] == b["note"]
        else "; ".join(
            f"{c['step']}, {who}: "
            + (
                s["note"]
                if s["skipped"]
                else (
                    f"{s['trips']['median']:.0f} round trips, "
                    f"{fmt_bytes(s['received']['median'] + s['sent']['median'])}, {s['note']}"
                )
            )
            for who, s in (("before", b), ("now", c))
        )
        for c, b in zip(table["cand"], table["base"], strict=True)
        if c["skipped"] or b["skipped"]
    )
    note = (
        f"round trips {_span(tb['trips'], _int)} → {_span(tc['trips'], _int)}; received "
        f"{fmt_bytes(statistics.median(tb['received']))} → "
        f"{fmt_bytes(statistics.median(tc['received']))}, sent "
        f"{fmt_bytes(statistics.median(tb['sent']))} → "
        f"{fmt_bytes(statistics.median(tc['sent']))}; tools/list "
        f"{share['base']:.0%} → {share['cand']:.0%} of the bytes"
        + (f"; {skipped}" if skipped else "")
        + (
            "; round trips and bytes were the same in every run (deterministic; only the "
            "number of tasks/get polls could vary with the machine's speed)"
            if deterministic
            else "; round trips and bytes were the same in every run (deterministic) "
            "except in "
            + ", ".join(dict.fromkeys(v.split(" (")[0] for v in varying))
            + " (tasks/get polls follow how long the work runs; answers carry times; "
            "ranges in the JSON)"
        )
    )
    row = report.add_bytes(
        "task_bytes",
        "agent task over `molforma --mcp`, all 12 steps: bytes on the wire (received + sent)",
        [int(x + y) for x, y in zip(tc["received"], tc["sent"], strict=True)],
        [int(x + y) for x, y in zip(tb["received"], tb["sent"], strict=True)],
        candidate=cand_label,
        baseline=base_label,
        note=note,
    )
    row["steps"] = table
    row["totals"] = {
        "candidate": {k: asdict(Stats.of(v)) for k, v in tc.items()},
        "baseline": {k: asdict(Stats.of(v)) for k, v in tb.items()},
    }
    row["deterministic"] = deterministic
    row["varying"] = varying
    report.add(
        "task_time",
        "agent task over `molforma --mcp`, all 12 steps: wall time",
        Comparison(Side(seconds=tc["seconds"]), Side(seconds=tb["seconds"])),
        candidate=cand_label,
        baseline=base_label,
        note="includes the stand-in NWChem run (~1.5 s), the 0.5 s poll interval and, "
        "where a version offers it, the clean-up's force-field child process",
    )
    report.add_bytes(
        "gui_tools_list",
        "tools/list of `molforma --mcp-gui` (offscreen): bytes received",
        gui["cand"],
        gui["base"],
        candidate=cand_label,
        baseline=base_label,
        target="≤ 80 kB",
        met=statistics.median(gui["cand"]) <= 80_000,
    )


def step_note(c: dict[str, Any], b: dict[str, Any]) -> str:
    """Round trips, received/sent bytes and wall time of one step, before → now."""

    def trips(s: dict[str, Any]) -> str:
        t = s["trips"]
        return _span([t["min"], t["median"], t["max"]], _int)

    def wall(s: dict[str, Any]) -> str:
        return fmt_seconds(s["seconds"]["median"])

    text = (
        f"round trips {trips(b)} → {trips(c)}; received {fmt_bytes(b['received']['median'])}"
        f" → {fmt_bytes(c['received']['median'])}, sent {fmt_bytes(b['sent']['median'])} → "
        f"{fmt_bytes(c['sent']['median'])}; wall {wall(b)} → {wall(c)}"
    )
    notes = [f"before: {b['note']}" if b["note"] else "", f"now: {c['note']}" if c["note"] else ""]
    if b["note"] == c["note"]:
        notes = [b["note"]]
    return "; ".join([text, *filter(None, notes)])


if __name__ == "__main__":
    sys.exit(main())
