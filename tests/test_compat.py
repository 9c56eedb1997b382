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
