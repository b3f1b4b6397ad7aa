"""Every value that reaches a batch script, a command line or an NWChem input is judged by
one grammar (molforma/nwchem/value_grammar.py) when it is set, whichever route sets it,
and the batch values again at submission, before PSI/J writes the script."""

from __future__ import annotations

import json
import re
import shlex
import string
from pathlib import Path
from typing import Any

import pytest

from molforma.app import ops
from molforma.app.actor import Actor
from molforma.document.document import Document
from molforma.document.envelope import new_project, project_from_json
from molforma.errors import MolFormaError, ValidationError
from molforma.i18n import render
from molforma.jobs import batch
from molforma.nwchem import value_grammar as grammar
from molforma.nwchem.input import render_input
from molforma.nwchem.settings import CalculationSettings, ExecutionSettings

NEWLINE_QOS = 'x"\ntouch /tmp/PWNED #'
OPTION_QOS = 'x" --chdir=/elsewhere --comment="y'

# (key, hostile value, code): finding 1 and finding 8 of the security issue.
BAD_EXECUTION = [
    ("qos", NEWLINE_QOS, "bad_slurm_name"),
    ("qos", OPTION_QOS, "bad_slurm_name"),
    ("partition", "debug\ntouch /tmp/PWNED", "bad_slurm_name"),
    ("partition", 'debug" --chdir=/tmp --comment="y', "bad_slurm_name"),
    ("partition", "debug short", "bad_slurm_name"),
    ("account", "chem\ntouch /tmp/PWNED", "bad_slurm_name"),
    ("time_limit", 1e300, "bad_time_limit"),
    ("time_limit", float("inf"), "bad_time_limit"),
    ("time_limit", 366 * 86400 + 1, "bad_time_limit"),
    ("batch_directives", ["--mem=4G\ntouch /tmp/PWNED"], "bad_batch_directive"),
    ("batch_directives", ['--comment=a"b'], "bad_batch_directive"),
    ("batch_directives", ["--comment=a b"], "bad_batch_directive"),
    ("batch_directives", ["--chdir=/elsewhere"], "reserved_batch_directive"),
    ("batch_directives", ["--ch=/elsewhere"], "reserved_batch_directive"),
    ("batch_directives", ["--output=/tmp/x"], "reserved_batch_directive"),
    ("environment", {"A B": "1"}, "bad_environment_variable"),
    ("environment", {"A": "x\0y"}, "bad_environment_variable"),
    ("executable", "nwchem\0", "bad_command_text"),
    ("launcher", "mpirun 'unbalanced", "bad_command_text"),
]
BAD_CALCULATION = [
    ("basis", "6-31g* file /etc/passwd", "bad_basis_name"),
    ("basis", "file", "bad_basis_name"),
    ("basis", "sto-3g\nend", "bad_basis_name"),
    ("functional", "b3lyp end", "bad_functional"),
    ("functional", "b3lyp\nend", "bad_functional"),
    ("functional", "b3lyp\ttask", "bad_functional"),
    ("functional", "b3lyp\u00a0lyp", "bad_functional"),
    ("functional", "b3lyp task shell", "bad_functional"),
]
GOOD_EXECUTION = {
    "partition": ["debug", "short", "gpu-a100", "node_01.x"],
    "qos": ["normal", "high", "debug_1"],
    "account": ["chem", "proj-42"],
    "time_limit": [None, 0.5, 60, 600.0, 366 * 86400],
    "batch_directives": [
        [],
        ["--mem=4G", "--constraint=cpu"],
        ["--begin=now+600"],
        ["--exclusive=user"],
        ["--uid=0"],
        ["#SBATCH --constraint=cpu"],
        ["--gres=gpu:a100:2", "--mail-user=me@example.org"],
    ],
    "environment": [{}, {"OMP_STACKSIZE": "64M", "A_1": "x y\nz"}],
}


def _ids(cases: list[tuple[str, Any, str]]) -> list[str]:
    return [f"{k}={grammar.shown(v, 30)}" for k, v, _c in cases]


@pytest.mark.parametrize(("key", "value", "code"), BAD_EXECUTION, ids=_ids(BAD_EXECUTION))
def test_a_hostile_execution_value_is_refused_by_its_validator_and_by_the_settings_model(
    key: str, value: Any, code: str
) -> None:
    with pytest.raises(ValidationError) as info:
        grammar.EXECUTION_VALIDATORS[key](value)
    assert info.value.code == code
    with pytest.raises(ValidationError) as info:
        ExecutionSettings.model_validate({key: value})
    assert info.value.code == code
    assert info.value.data["setting"] == key
    assert "\n" not in info.value.message("en")  # control characters are written out


@pytest.mark.parametrize(("key", "value", "code"), BAD_CALCULATION, ids=_ids(BAD_CALCULATION))
def test_a_hostile_basis_or_functional_is_refused_by_its_validator_and_the_model(
    key: str, value: Any, code: str
) -> None:
    with pytest.raises(ValidationError) as info:
        grammar.CALCULATION_VALIDATORS[key](value)
    assert info.value.code == code
    with pytest.raises(ValidationError) as info:
        CalculationSettings.model_validate({key: value})
    assert info.value.code == code and info.value.data["key"] == key


@pytest.mark.parametrize("key", sorted(GOOD_EXECUTION))
def test_ordinary_batch_values_are_accepted(key: str) -> None:
    for value in GOOD_EXECUTION[key]:
        assert grammar.EXECUTION_VALIDATORS[key](value) == value
        ExecutionSettings.model_validate({key: value})


def test_every_catalogue_basis_and_functional_and_common_xc_lines_are_accepted() -> None:
    from molforma.catalog import get_catalog

    for entry in get_catalog("basis_sets")["basis_sets"]:
        assert grammar.validate_basis(entry["name"]) == entry["name"]
    for entry in get_catalog("functionals")["functionals"]:
        assert grammar.validate_functional(entry["name"]) == entry["name"]
        assert grammar.validate_functional(entry["xc"]) == entry["xc"]
    for xc in (
        "xpbe96 cpbe96",
        "hfexch 0.2 becke88 0.8 lyp",
        "slater vwn_5",
        "m06-2x",
        "xpbe96   cpbe96",
        "B3LYP",
        "",
    ):
        assert grammar.validate_functional(xc) == xc
    for basis in ("6-311++g(2d,2p)", "lanl2dz_ecp", "def2-tzvp", "no-such-basis", ""):
        assert grammar.validate_basis(basis) == basis


def test_a_title_with_control_characters_is_refused_and_an_ordinary_one_kept() -> None:
    assert grammar.validate_title('Water "dimer"; 2 × H2O') == 'Water "dimer"; 2 × H2O'
    for bad in ("a\0b", "a\nb", "a\tb", "a\x7fb", "a\u2028b", "x" * 201):
        with pytest.raises(ValidationError) as info:
            grammar.validate_title(bad)
        assert info.value.code == "bad_title"


def test_every_batch_grammar_is_left_as_it_is_by_shlex_quote_so_no_value_ends_a_line_or_quote() -> (
    None
):
    # PSI/J writes #SBATCH --name="<shlex.quote(value)>": a value shlex.quote leaves alone
    # holds no quote, space or line break, so it can neither end the quote nor the line.
    allowed_name = set(string.ascii_letters + string.digits + "_.-")
    allowed_value = set(string.ascii_letters + string.digits + "_@%+=:,./-")
    for ch in map(chr, range(0x20000)):
        if ch in allowed_name:
            grammar.validate_qos(f"a{ch}b")
        else:
            with pytest.raises(ValidationError):
                grammar.validate_qos(f"a{ch}b")
        if ch in allowed_value:
            grammar.validate_batch_directive(f"--comment=a{ch}b")
        else:
            with pytest.raises(ValidationError):
                grammar.validate_batch_directive(f"--comment=a{ch}b")
    for ch in allowed_name | allowed_value:
        assert shlex.quote(f"a{ch}b") == f"a{ch}b"


def test_psij_writes_accepted_values_verbatim_on_one_line_each(tmp_path: Path) -> None:
    from psij import Job, JobAttributes, JobExecutor, JobSpec, ResourceSpecV1
    from psij.executors.batch.slurm import SlurmExecutorConfig

    executor = JobExecutor.get_instance(
        "slurm", config=SlurmExecutorConfig(work_directory=tmp_path / ".psij")
    )
    ex = ExecutionSettings.model_validate(
        {
            "partition": "debug",
            "qos": "normal-1",
            "account": "chem",
            "batch_directives": ["--mem=4G", "--begin=now+600"],
        }
    )
    custom = {
        "slurm.qos": ex.qos,
        **{f"slurm.{k}": v for k, v in (grammar.directive_parts(d) for d in ex.batch_directives)},
    }
    spec = JobSpec(
        executable="nwchem",
        arguments=["input.nw"],
        directory=tmp_path,
        name=grammar.validate_job_name("molforma-20261204-193000-H2O-optfreq"),
        resources=ResourceSpecV1(node_count=1, processes_per_node=1),
        attributes=JobAttributes(
            queue_name=ex.partition, account=ex.account, custom_attributes=custom
        ),
    )
    job = Job(spec)
    out = tmp_path / "script.sh"
    with out.open("w") as f:
        executor.generate_submit_script(job, executor._create_script_context(job), f)
    lines = out.read_text().splitlines()
    for expected in (
        '#SBATCH --partition="debug"',
        '#SBATCH --qos="normal-1"',
        '#SBATCH --account="chem"',
        '#SBATCH --mem="4G"',
        '#SBATCH --begin="now+600"',
    ):
        assert expected in lines, "\n".join(lines)
    # Every #SBATCH line is whole: one option, its value between one pair of quotes.
    for line in lines:
        if line.startswith("#SBATCH"):
            assert re.fullmatch(
                r'#SBATCH (--[a-z-]+(="[^"\s]*"|=[\w:-]+)?|-[eo] /dev/null)', line
            ), line


# -- every route refuses, and nothing changes -----------------------------------------------
@pytest.mark.parametrize(("key", "value", "code"), BAD_EXECUTION, ids=_ids(BAD_EXECUTION))
def test_the_window_and_tool_edit_path_refuses_and_leaves_the_document_unchanged(
    water_doc: Document, key: str, value: Any, code: str
) -> None:
    before = (water_doc.revision, json.dumps(water_doc.project, default=str))
    with pytest.raises(ValidationError) as info:
        ops.set_execution(water_doc, {key: value}, preview=False, actor=Actor.PERSON)
    assert info.value.code == code
    with pytest.raises(ValidationError):
        ops.set_execution(water_doc, {key: value}, preview=True, actor=Actor.MCP_TOOL)
    assert (water_doc.revision, json.dumps(water_doc.project, default=str)) == before
    assert water_doc.candidate is None


@pytest.mark.parametrize(("key", "value", "code"), BAD_CALCULATION, ids=_ids(BAD_CALCULATION))
def test_a_hostile_basis_or_functional_is_refused_when_set_not_only_by_the_generator(
    water_doc: Document, key: str, value: Any, code: str
) -> None:
    rev = water_doc.revision
    with pytest.raises(ValidationError) as info:
        ops.set_nwchem(water_doc, {key: value, "theory": "dft"}, preview=False)
    assert info.value.code == code
    assert water_doc.revision == rev and water_doc.project["calculation"][key] != value


@pytest.mark.parametrize("value", [NEWLINE_QOS, OPTION_QOS])
def test_a_project_file_or_a_reused_job_carrying_a_hostile_qos_is_refused(
    tmp_path: Path, value: str
) -> None:
    data = new_project()
    data["execution"].update(scheduler="slurm", qos=value)
    with pytest.raises(ValidationError) as info:
        project_from_json(json.loads(json.dumps(data)))
    assert info.value.code == "bad_slurm_name"
    # A History entry: a job folder whose project snapshot carries the value.
    from molforma.history.folder_scan import reuse

    folder = tmp_path / "20261204-193000-H2O-energy"
    folder.mkdir()
    (folder / "project.molforma.json").write_text(json.dumps(data))
    (folder / "input.nw").write_text("start x\n")
    with pytest.raises(ValidationError) as info:
        reuse(str(folder))
    assert info.value.code == "bad_slurm_name"


def test_the_input_generator_still_refuses_what_a_bypassed_model_would_carry() -> None:
    project = new_project()
    project["calculation"]["basis"] = "sto-3g file /etc/passwd"
    with pytest.raises(MolFormaError) as info:
        render_input(project)
    assert info.value.code == "bad_basis_name"


# -- submission: checked again, before anything is written --------------------------------
FORCED = [
    {"qos": NEWLINE_QOS},
    {"qos": OPTION_QOS},
    {"partition": "debug\ntouch /tmp/PWNED"},
    {"account": 'a" --chdir=/tmp --comment="b'},
    {"time_limit": 1e300},
    {"batch_directives": ["--mem=4G\ntouch /tmp/PWNED"]},
    {"batch_directives": ["--chdir=/"]},
    {"nodes": 0},
    {"tasksPerNode": 10**9},
    {"threads": True},
    {"environment": {"X\ntouch /tmp/PWNED": "1"}},
]


@pytest.mark.parametrize("forced", FORCED, ids=lambda f: grammar.shown(f, 40))
def test_a_batch_plan_refuses_values_forced_past_the_model_before_asking_the_cluster(
    forced: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    asked: list[str] = []
    monkeypatch.setattr(batch.cluster, "run", lambda *argv: asked.append(argv[0]) or "")
    execution = ExecutionSettings.model_construct(scheduler="slurm", **forced)
    with pytest.raises(ValidationError):
        batch.BatchPlan(execution)
    assert asked == []


@pytest.mark.parametrize("forced", FORCED[:6], ids=lambda f: grammar.shown(f, 40))
def test_a_batch_job_refuses_a_plan_with_values_forced_past_it_and_writes_no_script(
    tmp_path: Path, forced: dict[str, Any]
) -> None:
    folder = tmp_path / "20261204-193000-H2O-energy"
    folder.mkdir()
    plan = object.__new__(batch.BatchPlan)
    plan.execution = ExecutionSettings.model_construct(scheduler="slurm", **forced)
    plan.partition = forced.get("partition") or "debug"
    plan.command = ["nwchem", "input.nw"]
    plan.env = {}
    plan.directives = []
    job = batch.BatchJob(folder, {"id": folder.name, "status": "queued"})
    with pytest.raises(ValidationError):
        job.submit(plan)
    assert not (folder / batch.PSIJ_DIR).exists()
    assert list(folder.iterdir()) == []


def test_a_job_name_outside_the_grammar_is_refused() -> None:
    assert grammar.validate_job_name("molforma-20261204-193000-C6H6-optfreq")
    for bad in ('molforma-x"', "molforma-a b", "molforma-\n", "m" * 65):
        with pytest.raises(ValidationError) as info:
            grammar.validate_job_name(bad)
        assert info.value.code == "bad_job_name"


# -- messages -----------------------------------------------------------------------------------
CODES = [
    "bad_slurm_name",
    "bad_count_setting",
    "bad_time_limit",
    "bad_batch_directive",
    "reserved_batch_directive",
    "bad_job_name",
    "bad_environment_variable",
    "bad_command_text",
    "bad_basis_name",
    "bad_functional",
    "bad_title",
]


@pytest.mark.parametrize("code", CODES)
def test_every_refusal_has_an_english_and_a_japanese_sentence(code: str) -> None:
    data = {
        "setting": "qos",
        "value": "v",
        "maximum": "9",
        "minimum": "1",
        "days": 366,
        "name": "chdir",
    }
    en, ja = render(code, data, "en"), render(code, data, "ja")
    assert en != ja and "{" not in en and "{" not in ja
    assert re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", ja)


def test_the_persons_title_edit_takes_the_same_title_grammar() -> None:
    """ops.set_molecule (the window's title field) refuses what set_molecule refuses."""
    from molforma.app import ops
    from molforma.document.document import Document

    doc = Document()
    rev = doc.revision
    for title in ("wet\x00", "a\nb"):
        with pytest.raises(ValidationError) as err:
            ops.set_molecule(doc, title=title, preview=False, actor=Actor.PERSON)
        assert err.value.code == "bad_title"
    assert doc.revision == rev and doc.project["document"]["title"] != "wet\x00"
