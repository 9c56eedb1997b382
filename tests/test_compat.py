import pytest

from clinical_envs.compat import IncompatibleVerifiersError, require_classic_verifiers


@pytest.mark.parametrize("version", ["0.2.0", "0.2.1", "0.3.0", "0.3.1", "0.3.2.dev1"])
def test_classic_versions_pass(version):
    assert require_classic_verifiers(version) == version


@pytest.mark.parametrize("version", ["0.4.0", "1.0.0", "0.1.14"])
def test_other_versions_name_the_range_and_the_fix(version):
    with pytest.raises(IncompatibleVerifiersError) as err:
        require_classic_verifiers(version)
    assert version in str(err.value)
    assert ">=0.2.0,<0.4" in str(err.value) and "pip install" in str(err.value)


def test_load_environment_refuses_verifiers_0_4(monkeypatch):
    import set_diagnosis_tool_call

    import clinical_envs.compat as compat

    monkeypatch.setattr(compat, "version", lambda name: "0.4.0")
    with pytest.raises(IncompatibleVerifiersError, match=r"0\.4\.0"):
        set_diagnosis_tool_call.load_environment(dataset="bundled")


@pytest.mark.parametrize(
    ("version", "api"),
    [
        ("0.2.0", "classic"),
        ("0.3.1", "classic"),
        ("0.4.0", "v1"),
        ("1.2.0", "v1"),
        ("0.1.14", None),
    ],
)
def test_the_api_is_told_by_version(version, api):
    from clinical_envs.compat import verifiers_api

    assert verifiers_api(version) == api


def test_on_0_4_the_classic_error_says_how_to_run_on_v1():
    with pytest.raises(IncompatibleVerifiersError) as err:
        require_classic_verifiers("0.4.0")
    message = str(err.value)
    assert "only the v1 API" in message and "escalation-emergency" in message
    assert "--env.agent.harness.id null" in message and "--env.taskset." in message


def test_the_v1_adapter_refuses_the_older_verifiers_v1():
    from clinical_envs.compat import require_v1_verifiers

    assert require_v1_verifiers("0.4.0") == "0.4.0"
    with pytest.raises(IncompatibleVerifiersError, match=r"verifiers 0\.3\.1.*>=0\.4\.0"):
        require_v1_verifiers("0.3.1")


def test_environment_modules_export_v1_classes_only_on_v1():
    """verifiers 0.4's loader reads __all__ (exactly one Taskset); classic vf-eval ignores it."""
    import escalation_emergency

    from clinical_envs.compat import verifiers_api

    v1 = ["EscalationEmergencyTaskset", "EscalationEnv"] if verifiers_api() == "v1" else []
    assert escalation_emergency.__all__ == ["load_environment", *v1]


def test_the_v1_adapter_does_not_import_on_the_classic_api():
    from clinical_envs.compat import verifiers_api

    if verifiers_api() != "classic":
        pytest.skip("checks the classic side")
    with pytest.raises(IncompatibleVerifiersError, match=r"clinical_envs\.v1 needs the v1 API"):
        import clinical_envs.v1  # noqa: F401


def test_the_package_extras_pick_one_api_each():
    """The base pin allows both APIs; `[classic]` and `[v1]` are exactly the ranges compat
    accepts for each adapter, so an install picks an API the code runs on."""
    import tomllib
    from pathlib import Path

    from clinical_envs.compat import SUPPORTED, V1_SUPPORTED, verifiers_api

    project = tomllib.loads((Path(__file__).parents[1] / "pyproject.toml").read_text())["project"]
    (base,) = [d for d in project["dependencies"] if d.startswith("verifiers")]
    assert base == "verifiers>=0.2.0,<0.5"
    extras = project["optional-dependencies"]
    assert extras["classic"] == [f"verifiers{SUPPORTED}"]
    assert extras["v1"] == [f"verifiers{V1_SUPPORTED},<0.5"]
    assert verifiers_api("0.3.9") == "classic" and verifiers_api("0.4.9") == "v1"
