"""Safety policy: allowed directories, protected settings, who may start a calculation."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from molforma.app.policy import (
    Policy,
    check_protected_change,
    headless_trusted,
    may_start,
)
from molforma.document.document import protected_values
from molforma.document.envelope import new_project
from molforma.errors import CalculationError, FileAccessError, ProtectedSettingError


@pytest.fixture
def box(tmp_path: Path) -> dict[str, Path]:
    """An allowed directory, a nested one and a directory outside both."""
    allowed = tmp_path / "allowed"
    nested = allowed / "deep" / "er"
    outside = tmp_path / "outside"
    nested.mkdir(parents=True)
    outside.mkdir()
    (allowed / "in.txt").write_text("in")
    (outside / "secret.txt").write_text("secret")
    return {"allowed": allowed, "nested": nested, "outside": outside, "root": tmp_path}


def test_a_file_inside_the_allowed_directory_is_returned_resolved(box: dict[str, Path]) -> None:
    policy = Policy(allow_dirs=(box["allowed"],))
    got = policy.check_path(str(box["allowed"] / "sub" / ".." / "in.txt"), must_exist=True)
    assert got == (box["allowed"] / "in.txt").resolve()


def test_the_allowed_directory_itself_is_allowed(box: dict[str, Path]) -> None:
    policy = Policy(allow_dirs=(box["allowed"],))
    assert policy.check_path(str(box["allowed"])) == box["allowed"].resolve()


def test_dot_dot_escape_out_of_the_allowed_directory_is_refused(box: dict[str, Path]) -> None:
    policy = Policy(allow_dirs=(box["allowed"],))
    escape = str(box["allowed"]) + "/../outside/secret.txt"
    with pytest.raises(FileAccessError) as info:
        policy.check_path(escape)
    assert info.value.code == "path_not_allowed"
    assert info.value.data["path"] == escape
    assert info.value.data["allowed"] == [str(box["allowed"].resolve())]


def test_a_sibling_whose_name_starts_like_the_allowed_directory_is_refused(
    box: dict[str, Path],
) -> None:
    sibling = box["root"] / "allowed-not"
    sibling.mkdir()
    policy = Policy(allow_dirs=(box["allowed"],))
    with pytest.raises(FileAccessError) as info:
        policy.check_path(str(sibling / "x.txt"), for_write=True)
    assert info.value.code == "path_not_allowed"


def test_symlink_pointing_out_of_the_allowed_directory_is_refused(box: dict[str, Path]) -> None:
    link = box["allowed"] / "link.txt"
    link.symlink_to(box["outside"] / "secret.txt")
    dir_link = box["allowed"] / "door"
    dir_link.symlink_to(box["outside"], target_is_directory=True)
    policy = Policy(allow_dirs=(box["allowed"],))
    with pytest.raises(FileAccessError) as info:
        policy.check_path(str(link))
    assert info.value.code == "path_not_allowed"
    # A new file written through a directory link would land outside as well.
    with pytest.raises(FileAccessError) as info:
        policy.check_path(str(dir_link / "new.out"), for_write=True)
    assert info.value.code == "path_not_allowed"


def test_dot_dot_after_a_symlink_applies_to_the_link_target(box: dict[str, Path]) -> None:
    # allowed/door -> outside; allowed/door/../allowed/in.txt is root/allowed/in.txt on disk.
    (box["allowed"] / "door").symlink_to(box["outside"], target_is_directory=True)
    policy = Policy(allow_dirs=(box["allowed"],))
    got = policy.check_path(str(box["allowed"] / "door" / ".." / "allowed" / "in.txt"))
    assert got == (box["allowed"] / "in.txt").resolve()
    with pytest.raises(FileAccessError):
        policy.check_path(str(box["allowed"] / "door" / ".." / "outside" / "secret.txt"))


def test_symlink_pointing_inside_is_followed(box: dict[str, Path]) -> None:
    link = box["allowed"] / "alias.txt"
    link.symlink_to("in.txt")
    policy = Policy(allow_dirs=(box["allowed"],))
    assert policy.check_path(str(link), must_exist=True) == (box["allowed"] / "in.txt").resolve()


def test_symlink_from_outside_into_the_allowed_directory_is_accepted(
    box: dict[str, Path],
) -> None:
    link = box["outside"] / "shortcut"
    link.symlink_to(box["allowed"], target_is_directory=True)
    policy = Policy(allow_dirs=(box["allowed"],))
    assert policy.check_path(str(link / "in.txt")) == (box["allowed"] / "in.txt").resolve()


@pytest.mark.parametrize("where", ["allowed", "outside"])
def test_a_dangling_link_is_refused_wherever_it_points(box: dict[str, Path], where: str) -> None:
    link = box["allowed"] / "dangling.out"
    link.symlink_to(box[where] / "missing.out")
    policy = Policy(allow_dirs=(box["allowed"],))
    with pytest.raises(FileAccessError) as info:
        policy.check_path(str(link), for_write=True)
    assert info.value.code == "dangling_link"
    assert not (box[where] / "missing.out").exists()


def test_a_dangling_directory_link_in_the_middle_of_a_path_is_refused(
    box: dict[str, Path],
) -> None:
    (box["allowed"] / "gone").symlink_to(box["allowed"] / "nowhere", target_is_directory=True)
    policy = Policy(allow_dirs=(box["allowed"],))
    with pytest.raises(FileAccessError) as info:
        policy.check_path(str(box["allowed"] / "gone" / "file.nw"), for_write=True)
    assert info.value.code == "dangling_link"


def test_a_symlink_loop_is_refused(box: dict[str, Path]) -> None:
    (box["allowed"] / "a").symlink_to(box["allowed"] / "b")
    (box["allowed"] / "b").symlink_to(box["allowed"] / "a")
    policy = Policy(allow_dirs=(box["allowed"],))
    with pytest.raises(FileAccessError) as info:
        policy.check_path(str(box["allowed"] / "a"))
    assert info.value.code == "dangling_link"


def test_tilde_expands_to_home(box: dict[str, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    home = box["root"] / "home"
    (home / "work").mkdir(parents=True)
    monkeypatch.setenv("HOME", str(home))
    policy = Policy(allow_dirs=(Path("~/work"),))
    assert policy.allow_dirs == (home.resolve() / "work",)
    assert policy.check_path("~/work/job.nw", for_write=True) == home.resolve() / "work" / "job.nw"
    assert Policy(allow_dirs=(home,)).check_path("~") == home.resolve()
    with pytest.raises(FileAccessError) as info:
        policy.check_path("~/elsewhere.nw")
    assert info.value.code == "path_not_allowed"


def test_a_nested_allowed_directory_allows_only_its_own_tree(box: dict[str, Path]) -> None:
    policy = Policy(allow_dirs=(box["nested"],))
    assert policy.check_path(str(box["nested"] / "x.nw")) == box["nested"].resolve() / "x.nw"
    with pytest.raises(FileAccessError):
        policy.check_path(str(box["allowed"] / "in.txt"))


def test_several_allowed_directories_each_allow_their_tree(box: dict[str, Path]) -> None:
    policy = Policy(allow_dirs=(box["nested"], box["outside"]))
    policy.check_path(str(box["outside"] / "secret.txt"), must_exist=True)
    policy.check_path(str(box["nested"] / "new.nw"), for_write=True)
    with pytest.raises(FileAccessError):
        policy.check_path(str(box["allowed"] / "in.txt"))


def test_no_allowed_directories_means_no_restriction(box: dict[str, Path]) -> None:
    policy = Policy()
    target = box["outside"] / "secret.txt"
    assert policy.check_path(str(target), must_exist=True) == target.resolve()
    assert policy.check_path("/etc/../etc/hostname") == Path("/etc/hostname").resolve()


def test_must_exist_refuses_a_missing_file(box: dict[str, Path]) -> None:
    policy = Policy(allow_dirs=(box["allowed"],))
    with pytest.raises(FileAccessError) as info:
        policy.check_path(str(box["allowed"] / "nope.xyz"), must_exist=True)
    assert info.value.code == "path_not_found"


@pytest.mark.parametrize("restricted", [True, False])
def test_empty_paths_and_nul_characters_are_refused_cleanly(
    box: dict[str, Path], restricted: bool
) -> None:
    policy = Policy(allow_dirs=(box["allowed"],) if restricted else ())
    with pytest.raises(FileAccessError) as info:
        policy.check_path(str(box["allowed"]) + "/a\x00b")
    assert info.value.code == "file_error"
    with pytest.raises(FileAccessError) as info:
        policy.check_path("")
    assert info.value.code == "path_not_found"


def test_writing_below_a_regular_file_is_refused(box: dict[str, Path]) -> None:
    policy = Policy(allow_dirs=(box["allowed"],))
    with pytest.raises(FileAccessError) as info:
        policy.check_path(str(box["allowed"] / "in.txt" / "x.json"), for_write=True)
    assert info.value.code == "path_not_directory"


def test_error_messages_exist_in_english_and_japanese(box: dict[str, Path]) -> None:
    policy = Policy(allow_dirs=(box["allowed"],))
    with pytest.raises(FileAccessError) as info:
        policy.check_path(str(box["outside"]))
    en, ja = info.value.message("en"), info.value.message("ja")
    assert str(box["outside"]) in en and "--mcp-allow-dir" in en
    assert str(box["outside"]) in ja and "許可" in ja


def test_advanced_absolute_paths_must_be_inside(box: dict[str, Path]) -> None:
    policy = Policy(allow_dirs=(box["allowed"],))
    policy.check_advanced_paths(
        {
            "scratch_dir": str(box["allowed"] / "scratch"),
            "input_movecs": "water.movecs",
            "permanent_dir": None,
            "memory_mb": 500,
        }
    )
    with pytest.raises(FileAccessError) as info:
        policy.check_advanced_paths({"output_movecs": str(box["outside"] / "out.movecs")})
    assert info.value.code == "path_not_allowed"
    with pytest.raises(FileAccessError):
        policy.check_advanced_paths({"permanent_dir": "../../escape"})
    Policy().check_advanced_paths({"scratch_dir": str(box["outside"])})


def test_to_dict_reports_directories_flag_and_trusted_values(box: dict[str, Path]) -> None:
    policy = Policy(allow_dirs=(box["allowed"],), allow_execution_settings=True)
    out = policy.to_dict({"executable": "nwchem", "launcher": "mpirun", "environment": {}})
    assert out["allowedDirectories"] == [str(box["allowed"].resolve())]
    assert out["executionSettingsAllowed"] is True
    assert out["trusted"]["executable"] == "nwchem"
    assert out["trusted"]["extra_tasks"] == []
    json.dumps(out)


def test_same_protected_value_is_accepted() -> None:
    current = new_project()["execution"]
    check_protected_change(
        current,
        {"executable": "nwchem", "launcher": "mpirun", "environment": {}, "processes": 4},
        "execution",
        Policy(),
    )


@pytest.mark.parametrize(
    ("block", "key", "value"),
    [
        ("execution", "executable", "/tmp/evil"),
        ("execution", "launcher", "mpirun --allow-run-as-root"),
        ("execution", "environment", {"LD_PRELOAD": "/tmp/x.so"}),
        ("calculation", "extra_input", "print high"),
        ("calculation", "extra_tasks", ["scf property"]),
    ],
)
def test_different_protected_value_is_refused(block: str, key: str, value: object) -> None:
    current = new_project()[block]
    with pytest.raises(ProtectedSettingError) as info:
        check_protected_change(current, {key: value}, block, Policy())
    assert info.value.code == "protected_setting"
    assert info.value.data["setting"] == key
    check_protected_change(current, {key: value}, block, Policy(allow_execution_settings=True))


def test_unprotected_settings_change_freely() -> None:
    current = new_project()["execution"]
    check_protected_change(
        current, {"processes": 8, "job_root": "/x", "threads": 2}, "execution", Policy()
    )
    calc = new_project()["calculation"]
    check_protected_change(calc, {"theory": "dft", "basis": "cc-pvdz"}, "nwchem", Policy())


def test_missing_current_value_counts_as_the_default() -> None:
    check_protected_change({}, {"extra_input": "", "extra_tasks": []}, "calculation", Policy())
    with pytest.raises(ProtectedSettingError):
        check_protected_change({}, {"executable": "other"}, "execution", Policy())


def _trusted() -> dict[str, object]:
    return protected_values(new_project())


def test_mcp_start_with_trusted_values_is_allowed() -> None:
    may_start(protected_values(new_project()), _trusted(), Policy(), "mcp")


def test_mcp_start_with_untrusted_values_is_refused_with_the_differing_keys() -> None:
    proj = new_project()
    proj["execution"]["executable"] = "/opt/other/nwchem"
    proj["calculation"]["extra_tasks"] = ["shell ls"]
    with pytest.raises(CalculationError) as info:
        may_start(protected_values(proj), _trusted(), Policy(), "mcp")
    assert info.value.code == "untrusted_execution"
    assert info.value.data["differences"] == ["executable", "extra_tasks"]
    assert "Run" in info.value.message("en")
    assert "実行" in info.value.message("ja")


def test_untrusted_values_run_when_the_flag_is_given_or_the_person_starts() -> None:
    proj = new_project()
    proj["execution"]["environment"] = {"OMP_STACKSIZE": "1G"}
    may_start(protected_values(proj), _trusted(), Policy(allow_execution_settings=True), "mcp")
    may_start(protected_values(proj), _trusted(), Policy(), "user")


def test_headless_trusted_values_come_from_preferences(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MOLFORMA_CONFIG_DIR", str(tmp_path))
    assert headless_trusted() == {
        "executable": "nwchem",
        "launcher": "mpirun",
        "environment": {},
        "scheduler": "local",
        "account": None,
        "batch_directives": [],
        "extra_input": "",
        "extra_tasks": [],
    }
    (tmp_path / "preferences.json").write_text(
        json.dumps({"executable": "/usr/local/bin/nwchem", "environment": {"A": "1"}}),
        encoding="utf-8",
    )
    got = headless_trusted()
    assert got["executable"] == "/usr/local/bin/nwchem"
    assert got["environment"] == {"A": "1"}
    proj = new_project(executable="/usr/local/bin/nwchem", environment={"A": "1"})
    may_start(protected_values(proj), got, Policy(), "mcp")
    with pytest.raises(CalculationError):
        may_start(protected_values(new_project()), got, Policy(), "mcp")


def test_relative_path_is_taken_from_the_working_directory(
    box: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(box["allowed"])
    policy = Policy(allow_dirs=(box["allowed"],))
    assert policy.check_path("in.txt") == (box["allowed"] / "in.txt").resolve()
    monkeypatch.chdir(box["outside"])
    with pytest.raises(FileAccessError):
        policy.check_path("secret.txt")


def test_scheduler_account_and_batch_directives_from_preferences_are_trusted_and_others_are_not(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MOLFORMA_CONFIG_DIR", str(tmp_path))
    (tmp_path / "preferences.json").write_text(
        json.dumps({"scheduler": "slurm", "account": "chem", "batch_directives": ["--mem=4G"]})
    )
    got = headless_trusted()
    proj = new_project(scheduler="slurm", account="chem", batch_directives=["--mem=4G"])
    may_start(protected_values(proj), got, Policy(), "mcp")
    for change in (
        {"scheduler": "local"},
        {"account": "other"},
        {"batch_directives": ["--mem=4G", "--exclusive=user"]},
    ):
        other = new_project(**{**proj["execution"], **change})
        with pytest.raises(CalculationError) as info:
            may_start(protected_values(other), got, Policy(), "mcp")
        assert info.value.data["differences"] == list(change)
    # Partition, QoS, nodes and tasks are free to change.
    free = new_project(
        **{**proj["execution"], "partition": "long", "qos": "high", "nodes": 2, "tasksPerNode": 4}
    )
    may_start(protected_values(free), got, Policy(), "mcp")


def test_the_configuration_directory_is_refused_whatever_the_allowed_directories(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cfg = tmp_path / "cfg"
    cfg.mkdir()
    (tmp_path / "sibling").mkdir()
    (tmp_path / "link").symlink_to(cfg)
    monkeypatch.setenv("MOLFORMA_CONFIG_DIR", str(cfg))
    for policy in (Policy(), Policy(allow_dirs=(str(tmp_path),))):
        for path in (
            cfg,
            cfg / "preferences.json",
            cfg / "new" / "x.json",
            tmp_path / "link" / "preferences.json",
            tmp_path / "sibling" / ".." / "cfg" / "preferences.json",
        ):
            for kwargs in ({"for_write": True}, {}):
                with pytest.raises(FileAccessError) as err:
                    policy.check_path(path, **kwargs)
                assert err.value.code == "path_in_config_dir", (path, kwargs)
        # A name that only starts like the configuration directory is not inside it.
        assert policy.check_path(tmp_path / "cfg2" / "x.json", for_write=True)
        with pytest.raises(FileAccessError) as err:
            policy.check_advanced_paths(
                {"output_movecs": "../../cfg/preferences.json"}, job_root=tmp_path / "jobs"
            )
        assert err.value.code in ("path_in_config_dir", "path_not_allowed")
        with pytest.raises(FileAccessError) as err:
            policy.check_advanced_paths({"permanent_dir": str(cfg)})
        assert err.value.code == "path_in_config_dir"


def test_a_name_longer_than_255_bytes_is_refused_clearly(box: dict[str, Path]) -> None:
    for policy in (Policy(), Policy(allow_dirs=(str(box["allowed"]),))):
        for name in ("a" * 256, "é" * 128):
            with pytest.raises(FileAccessError) as err:
                policy.check_path(box["allowed"] / name, for_write=True)
            assert err.value.code == "path_too_long"
        assert policy.check_path(box["allowed"] / ("a" * 255), for_write=True)
