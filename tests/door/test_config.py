import dataclasses
import doctest
from importlib import resources
from pathlib import Path

import pytest

import door.config
from door.config import (
    Config,
    ConfigError,
    config_from_mapping,
    host_and_port,
    load_config,
    with_overrides,
)
from door.paths import CONFIG_ENV, user_config_dir, user_data_dir

PACKAGED_CONFIG = Path(str(resources.files("door.resources").joinpath("door.toml")))


def settings_only(config: Config) -> Config:
    """The config without the record of which file it came from."""
    return dataclasses.replace(config, location=Config().location)


def test_doctests() -> None:
    # host_and_port's examples (the hub's address, IPv6 in brackets) were run by nothing.
    results = doctest.testmod(door.config)
    assert results.attempted > 0 and results.failed == 0


def test_the_packaged_config_file_holds_the_defaults() -> None:
    assert settings_only(load_config(PACKAGED_CONFIG)) == Config()


def test_no_file_means_defaults(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    config = load_config()
    assert config.server.telnet_port == 2323 and config.server.host == "127.0.0.1"
    assert config.location.path is None and "cribbage-door init" in config.location.describe()
    assert config.texts_dir is None
    assert config.server.data_path == user_data_dir()


def write_config(path: Path, telnet_port: int) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"[server]\ntelnet_port = {telnet_port}\n")
    return path


def test_the_search_order_is_flag_then_environment_then_here_then_user_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    user = write_config(user_config_dir() / "door.toml", 4004)
    try:
        assert load_config().server.telnet_port == 4004
        write_config(tmp_path / "config" / "door.toml", 4003)
        assert load_config().server.telnet_port == 4003
        monkeypatch.setenv(CONFIG_ENV, str(write_config(tmp_path / "env.toml", 4002)))
        assert load_config().server.telnet_port == 4002
        flag = write_config(tmp_path / "flag.toml", 4001)
        config = load_config(flag)
        assert config.server.telnet_port == 4001
        assert config.location.path == flag and config.texts_dir == tmp_path
    finally:
        user.unlink()


def test_an_environment_variable_naming_no_file_is_an_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(CONFIG_ENV, str(tmp_path / "gone.toml"))
    with pytest.raises(ConfigError, match=f"gone.toml: no such config file .{CONFIG_ENV}"):
        load_config()


def test_a_relative_data_dir_is_taken_from_the_config_files_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "etc" / "door.toml"
    path.parent.mkdir()
    path.write_text('[server]\ndata_dir = "state"\n')
    assert load_config(path).server.data_path == tmp_path / "etc" / "state"
    flagged = with_overrides(load_config(path), data_dir="here")
    assert flagged.server.data_path == tmp_path / "here"


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("[server]\ntelnet_port = 'x'\n", "server.telnet_port"),
        ("[server]\nssh_port = 70000\n", "server.ssh_port"),
        ("[server]\ntelent_port = 23\n", "server.telent_port"),
        ("[game]\nruns = 'loose'\n", "game.runs"),
        ("[game]\nlevel = 3\n", "game.level"),
        ("[game]\nwin_bar = 'sometimes'\n", "game.win_bar"),
        ("[server]\nssh_legacy_algorithms = 'yes'\n", "server.ssh_legacy_algorithms"),
        ("[server]\nhost = ''\n", "server.host"),
        ("[sever]\nhost = 'x'\n", "[sever]"),
        ("server = 3\n", "[server]"),
        ("[server]\nidle_warning_seconds = 400\n", "server.idle_warning_seconds"),
        ("[server\nport=1", "not valid TOML"),
        ("[database]\nlockout_seconds = 0\n", "database.lockout_seconds"),
        ("[database]\nurl = 'mysql://x'\n", "database.url"),
        ("[database]\npasword = 'x'\n", "database.pasword"),
        ("[pbm]\ndays_per_move = 0\n", "pbm.days_per_move"),
        ("[pbm]\nmoves_per_day = -1\n", "pbm.moves_per_day"),
        ("[pbm]\nmoves_per_day = 2.5\n", "pbm.moves_per_day"),
        ("[web]\ntrusted_proxies = ['nginx.local']\n", "web.trusted_proxies"),
        ("[web]\ntrusted_proxies = '127.0.0.1'\n", "web.trusted_proxies"),
        ("[server]\nproxy_addresses = []\n", "server.proxy_addresses"),
        # An IPv6 hub goes in brackets: "2001:db8::1:2513" could be an address alone.
        ("[hub]\naddress = '::1:2513'\n", "hub.address"),
        ("[hub]\naddress = '[::1:2513'\n", "hub.address"),
        ("[hub]\naddress = '[bbs.example]:2513'\n", "hub.address"),
        ("[hub]\naddress = '[]:2513'\n", "hub.address"),
        ("[hub]\naddress = 'bbs.example:0'\n", "hub.address"),
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


def test_trusted_proxies_take_addresses_and_networks_or_none() -> None:
    assert Config().web.trusted_proxies == ("127.0.0.1", "::1")  # nginx on this machine
    given = {"trusted_proxies": ["10.0.0.0/8", "2001:db8::/32", "192.0.2.1"]}
    assert config_from_mapping({"web": given}).web.trusted_proxies == tuple(
        given["trusted_proxies"]
    )
    assert config_from_mapping({"web": {"trusted_proxies": []}}).web.trusted_proxies == ()


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


@pytest.mark.parametrize(
    ("section", "days", "moves"),
    [
        ({}, 3, None),
        ({"moves_per_day": 0}, 3, None),
        ({"days_per_move": 1, "moves_per_day": 4}, 1, 4),
    ],
)
def test_the_pbm_section_gives_the_play_by_mail_rules(
    section: dict[str, int], days: int, moves: int | None
) -> None:
    rules = config_from_mapping({"pbm": section}).pbm.rules
    assert (rules.days_per_move, rules.moves_per_day) == (days, moves)


def test_the_packaged_config_names_every_choice_of_each_key_that_has_choices() -> None:
    from door.table.win_bars import WIN_BAR_SETTINGS
    from engine.computer.levels import LEVELS

    choices = {
        "runs": ("free", "exact"),
        "counting": ("auto", "manual"),
        "level": LEVELS,
        "win_bar": WIN_BAR_SETTINGS,
    }
    lines = PACKAGED_CONFIG.read_text().splitlines()
    game = lines[lines.index("[game]") :]
    for key, values in choices.items():
        line = next(line for line in game if line.startswith(f"{key} = "))
        assert all(f'"{value}"' in line for value in values), line


def test_door_mode_may_start_every_caller_in_screen_reader_mode() -> None:
    assert config_from_mapping({}).door_mode_screen_reader is False
    game = config_from_mapping({"game": {"screen_reader": True}})
    assert game.game.screen_reader is True and game.door_mode_screen_reader is True
    with pytest.raises(ConfigError, match="game.screen_reader must be true or false"):
        config_from_mapping({"game": {"screen_reader": "yes"}})


def test_the_old_door_screen_reader_key_is_still_read() -> None:
    old = config_from_mapping({"door": {"screen_reader": True}})
    assert old.door_mode_screen_reader is True
    with pytest.raises(ConfigError, match="door.screen_reader must be true or false"):
        config_from_mapping({"door": {"screen_reader": "yes"}})


def test_the_packaged_config_documents_screen_reader_under_game() -> None:
    lines = PACKAGED_CONFIG.read_text().splitlines()
    game = lines[lines.index("[game]") : lines.index("[database]")]
    assert any(line.startswith("screen_reader = false") for line in game)
    door = lines[lines.index("[door]") :]
    door = door[: next(i for i, line in enumerate(door[1:], 1) if line.startswith("["))]
    assert not any("screen_reader" in line for line in door)


@pytest.mark.parametrize(
    ("address", "host", "port"),
    [
        ("127.0.0.1:2513", "127.0.0.1", 2513),
        ("[::1]:2513", "::1", 2513),
        ("bbs.example:513", "bbs.example", 513),
    ],
)
def test_the_hubs_address_is_a_host_and_a_port_an_ipv6_host_in_brackets(
    address: str, host: str, port: int
) -> None:
    assert config_from_mapping({"hub": {"address": address}}).hub.address == address
    assert host_and_port(address) == (host, port)  # where door mode connects
