from pathlib import Path

import pytest

from door.config import Config, ConfigError, config_from_mapping, load_config, with_overrides

REPO_CONFIG = Path(__file__).resolve().parents[2] / "config" / "door.toml"


def test_the_shipped_config_file_holds_the_defaults() -> None:
    assert load_config(REPO_CONFIG) == Config()


def test_no_file_means_defaults(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    config = load_config()
    assert config.server.telnet_port == 2323 and config.server.host == "127.0.0.1"


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("[server]\ntelnet_port = 'x'\n", "server.telnet_port"),
        ("[server]\nssh_port = 70000\n", "server.ssh_port"),
        ("[server]\ntelent_port = 23\n", "server.telent_port"),
        ("[game]\nruns = 'loose'\n", "game.runs"),
        ("[game]\nlevel = 3\n", "game.level"),
        ("[server]\nssh_legacy_algorithms = 'yes'\n", "server.ssh_legacy_algorithms"),
        ("[server]\nhost = ''\n", "server.host"),
        ("[sever]\nhost = 'x'\n", "[sever]"),
        ("server = 3\n", "[server]"),
        ("[server]\nidle_warning_seconds = 400\n", "server.idle_warning_seconds"),
        ("[server\nport=1", "not valid TOML"),
        ("[database]\nlockout_seconds = 0\n", "database.lockout_seconds"),
        ("[database]\nurl = 'mysql://x'\n", "database.url"),
        ("[database]\npasword = 'x'\n", "database.pasword"),
    ],
)
def test_a_bad_value_names_the_file_and_the_key(tmp_path: Path, text: str, names: str) -> None:
    path = tmp_path / "door.toml"
    path.write_text(text)
    with pytest.raises(ConfigError) as error:
        load_config(path)
    message = str(error.value)
    assert str(path) in message and names in message
    assert "\n" not in message


def test_a_missing_named_file_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="no such config file"):
        load_config(tmp_path / "absent.toml")


def test_flags_override_the_file_and_are_checked() -> None:
    config = with_overrides(Config(), telnet_port=0, host="0.0.0.0", ssh_port=None)
    assert (config.server.telnet_port, config.server.host, config.server.ssh_port) == (
        0,
        "0.0.0.0",
        2222,
    )
    with pytest.raises(ConfigError, match="server.ssh_port"):
        with_overrides(Config(), ssh_port=-1)


def test_config_is_frozen() -> None:
    config = config_from_mapping({"game": {"counting": "manual"}})
    with pytest.raises(AttributeError):
        config.game.counting = "auto"  # type: ignore[misc]


def test_the_database_section_is_read_with_the_rest() -> None:
    config = config_from_mapping(
        {"database": {"url": "postgresql://door@db/cribbage", "max_failed_logins": 3}}
    )
    assert config.database.url == "postgresql://door@db/cribbage"
    assert config.database.max_failed_logins == 3
    assert with_overrides(config, telnet_port=0).database == config.database
