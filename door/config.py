"""The door's configuration: a frozen dataclass read from TOML, passed in, never global.

Every setting has a default, so the server starts with no file at all. A file
may set any of them; an unknown key, a wrong type or an out-of-range value is
a ConfigError whose one-line message names the file and the key. Which file is read is
decided by ``door.paths.find_config``.
"""

from __future__ import annotations

import dataclasses
import ipaddress
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from door.competition.pbm import PbmRules
from door.paths import ConfigLocation, find_config, user_data_dir
from door.storage.settings import (
    DatabaseSettings,
    DatabaseSettingsError,
    database_settings_from_mapping,
)
from door.table.win_bars import WIN_BAR_SETTINGS
from engine.computer.levels import LEVELS


class ConfigError(Exception):
    """A configuration file or value that cannot be used; the message is one line."""


@dataclass(frozen=True)
class ServerConfig:
    host: str = "127.0.0.1"
    telnet_port: int = 2323
    ssh_port: int = 2222
    # "" means the user's data folder (door/paths.py); a relative path in a config file
    # is taken from that file's folder.
    data_dir: str = ""
    max_sessions: int = 1250  # 1,200 playing callers and room (bench/load.py)
    idle_warning_seconds: int = 240
    idle_timeout_seconds: int = 300
    # Old ciphers and key exchange for cryptlib-based BBS clients (SyncTERM).
    ssh_legacy_algorithms: bool = False
    # What one connection may cost the others (door/defence/guard.py, door/defence/ratelimit.py).
    key_rate: float = 40.0  # keys a second a caller may send; faster ones are dropped
    key_burst: int = 100  # keys at once (a pasted line) before the rate applies
    output_stall_seconds: int = 120  # a caller who reads nothing this long is hung up on
    login_timeout_seconds: int = 60  # to get from connecting to the lobby
    max_connections_per_address: int = 8  # at once, from one address
    connections_per_minute_per_address: int = 30
    reserved_sessions: int = 10  # of max_sessions, kept for members and the sysop
    # Behind a load balancer (door/transports/proxy_header.py): every connection comes
    # from one of proxy_addresses and begins with a PROXY protocol header (v1 or v2).
    proxy_protocol: bool = False
    proxy_addresses: tuple[str, ...] = ("127.0.0.1", "::1")

    @property
    def data_path(self) -> Path:
        """The data folder as an absolute path."""
        return Path(self.data_dir).expanduser().absolute() if self.data_dir else user_data_dir()


@dataclass(frozen=True)
class GameConfig:
    runs: str = "free"
    counting: str = "auto"
    level: str = "normal"
    # How long each of the computer's moves stays on screen before the next.
    computer_pause_seconds: float = 0.8
    # How long a game between callers waits for one whose line dropped before the
    # computer takes their seat (the others may hand it over sooner).
    reconnect_wait_seconds: float = 120.0
    # How long a game between callers waits on one caller's move (the deal, the throw,
    # the cut, a card, a count) before the other side may claim it as that caller's
    # forfeit; 0: never (door/table/stalls.py).
    claim_after_seconds: float = 180.0
    # The win bar: "on" at the start, "off" until a caller presses w, or "never".
    win_bar: str = "on"
    # Door mode (``cribbage-door door``): every caller starts in screen-reader mode, plain
    # sentences one line at a time (door/table/reader.py), for a board of blind callers.
    screen_reader: bool = False


@dataclass(frozen=True)
class DoorConfig:
    bbs_name: str = "Cribbage Door"
    # The old name of [game] screen_reader, still read (one field and one ``or``), so a
    # board set up with it keeps starting its callers in screen-reader mode.
    screen_reader: bool = False


@dataclass(frozen=True)
class SysopConfig:
    """The sysop's account. Nobody else may use ``name``. Over SSH the sysop logs in with
    the password whose hash is ``password_hash`` (made by ``cribbage-door sysop-password``;
    empty: no password login) or with one of ``authorized_keys`` (OpenSSH public key
    lines). On the machine itself, ``cribbage-door console`` needs neither."""

    name: str = "Sysop"
    password_hash: str = ""
    authorized_keys: tuple[str, ...] = ()


@dataclass(frozen=True)
class RloginConfig:
    """RLogin for linked BBSes and door nodes (door/transports/rlogin.py). ``port`` 0 is off;
    ``systems`` maps each address allowed to connect to its system tag, under which its
    callers' records are kept."""

    port: int = 0
    systems: tuple[tuple[str, str], ...] = ()

    @property
    def system_by_address(self) -> dict[str, str]:
        return dict(self.systems)


@dataclass(frozen=True)
class WebConfig:
    """The door in a browser (door/transports/web.py). ``port`` 0 is off. ``allowed_origins`` lists
    other sites whose pages may open the door's WebSocket (e.g. a BBS's web front end,
    "https://bbs.example"); the door's own page always may. A request from one of
    ``trusted_proxies`` (addresses and networks) is its caller's as X-Forwarded-For,
    Forwarded or X-Real-IP names them (door/transports/web_forwarded.py), and the
    per-address limits apply to that caller, not to the proxy."""

    port: int = 0
    allowed_origins: tuple[str, ...] = ()
    # Loopback, as README's nginx example runs: nginx on the door's machine. A caller from
    # elsewhere never connects from loopback, so cannot claim an address by sending the
    # headers; a program on this machine that passes raw TCP through (stunnel, socat, an
    # SSH tunnel) would let them, and then this must be [] or that program's address left out.
    trusted_proxies: tuple[str, ...] = ("127.0.0.1", "::1")


@dataclass(frozen=True)
class HubConfig:
    """Door mode's hub: ``address`` ("host:port", "[::1]:port" for IPv6) of a running
    ``cribbage-door serve``'s RLogin listener that lists this machine; "" plays the
    computer alone."""

    address: str = ""


@dataclass(frozen=True)
class PbmConfig:
    """Play-by-mail games between members (door/app/mail_games.py): a player has
    ``days_per_move`` days to make each move or forfeits the game, and may make at most
    ``moves_per_day`` moves on one (UTC) day; 0 is no limit."""

    days_per_move: int = 3
    moves_per_day: int = 0

    @property
    def rules(self) -> PbmRules:
        return PbmRules(self.days_per_move, self.moves_per_day or None)


@dataclass(frozen=True)
class ClusterConfig:
    """Many processes, one door (door/cluster): ``workers`` processes share the ports,
    0 meaning one per core; with more than one, ``redis_url`` is where they share who
    is online, the lobby chat, challenges and the screens of games across workers
    (PostgreSQL, in [database], holds what is kept)."""

    workers: int = 1
    redis_url: str = ""


@dataclass(frozen=True)
class MetricsConfig:
    """Prometheus metrics and health checks (door/metrics): ``port`` 0 is off; ``host``
    is where they listen, this machine only unless it says otherwise."""

    port: int = 0
    host: str = "127.0.0.1"


@dataclass(frozen=True)
class ChatConfig:
    """Chat (door/app/moderation.py): ``masked_words`` are starred out of every chat
    line, as whole words, in any case and lookalike spellings."""

    masked_words: tuple[str, ...] = ()


MAX_MASKED_WORDS = 1000
"""Each chat line's words are looked up in a set: the length of the list costs nothing
per line, only memory; a thousand is more than any list a sysop keeps."""


@dataclass(frozen=True)
class Config:
    server: ServerConfig = field(default_factory=ServerConfig)
    game: GameConfig = field(default_factory=GameConfig)
    door: DoorConfig = field(default_factory=DoorConfig)
    sysop: SysopConfig = field(default_factory=SysopConfig)
    rlogin: RloginConfig = field(default_factory=RloginConfig)
    web: WebConfig = field(default_factory=WebConfig)
    hub: HubConfig = field(default_factory=HubConfig)
    pbm: PbmConfig = field(default_factory=PbmConfig)
    cluster: ClusterConfig = field(default_factory=ClusterConfig)
    metrics: MetricsConfig = field(default_factory=MetricsConfig)
    chat: ChatConfig = field(default_factory=ChatConfig)
    database: DatabaseSettings = field(default_factory=DatabaseSettings)
    """Where accounts, statistics and saved games are kept (door/storage/settings.py)."""
    location: ConfigLocation = ConfigLocation(None, "built in")
    """Which file this came from (not a setting: the file cannot set it)."""

    @property
    def texts_dir(self) -> Path | None:
        """The sysop's folder of texts and art: the config file's own folder."""
        return None if self.location.path is None else self.location.path.parent

    @property
    def door_mode_screen_reader(self) -> bool:
        """Door mode starts every caller in screen-reader mode: ``[game] screen_reader``,
        or its old name ``[door] screen_reader``."""
        return self.game.screen_reader or self.door.screen_reader


_SECTIONS: dict[str, type] = {
    "server": ServerConfig,
    "game": GameConfig,
    "door": DoorConfig,
    "sysop": SysopConfig,
    "rlogin": RloginConfig,
    "web": WebConfig,
    "hub": HubConfig,
    "pbm": PbmConfig,
    "cluster": ClusterConfig,
    "metrics": MetricsConfig,
    "chat": ChatConfig,
}
_MAY_BE_EMPTY: frozenset[str] = frozenset(
    {"sysop.password_hash", "server.data_dir", "hub.address", "cluster.redis_url"}
)
_HASH_PREFIXES: tuple[str, ...] = ("scrypt$", "$argon2")
_REDIS_SCHEMES: tuple[str, ...] = ("redis://", "rediss://", "unix://")
_CHOICES: dict[str, tuple[str, ...]] = {
    "game.runs": ("free", "exact"),
    "game.counting": ("auto", "manual"),
    "game.level": LEVELS,
    "game.win_bar": WIN_BAR_SETTINGS,
}
_RANGES: dict[str, tuple[float, float]] = {
    "game.computer_pause_seconds": (0, 10),
    "game.reconnect_wait_seconds": (1, 3600),
    "game.claim_after_seconds": (0, 86_400),
    "server.telnet_port": (0, 65535),
    "server.ssh_port": (0, 65535),
    "rlogin.port": (0, 65535),
    "web.port": (0, 65535),
    "server.max_sessions": (1, 100_000),
    "server.idle_warning_seconds": (5, 86_400),
    "server.idle_timeout_seconds": (10, 86_400),
    "server.key_rate": (1, 10_000),
    "server.key_burst": (1, 100_000),
    "server.output_stall_seconds": (5, 86_400),
    "server.login_timeout_seconds": (5, 3600),
    "server.max_connections_per_address": (1, 100_000),
    "server.connections_per_minute_per_address": (1, 100_000),
    "server.reserved_sessions": (0, 100_000),
    "pbm.days_per_move": (1, 365),
    "pbm.moves_per_day": (0, 10_000),
    "cluster.workers": (0, 256),
    "metrics.port": (0, 65535),
}


def _check_value(where: str, key: str, expected: type, value: Any) -> Any:
    if expected is int and (isinstance(value, bool) or not isinstance(value, int)):
        raise ConfigError(f"{where}: {key} must be a whole number, not {value!r}")
    if expected is float:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise ConfigError(f"{where}: {key} must be a number, not {value!r}")
        value = float(value)
    if expected is bool and not isinstance(value, bool):
        raise ConfigError(f"{where}: {key} must be true or false, not {value!r}")
    if expected is str and not isinstance(value, str):
        raise ConfigError(f"{where}: {key} must be a string, not {value!r}")
    if expected is str and key not in _MAY_BE_EMPTY and not value.strip():
        raise ConfigError(f"{where}: {key} must be a non-empty string, not {value!r}")
    if key == "sysop.password_hash" and value and not value.startswith(_HASH_PREFIXES):
        raise ConfigError(
            f"{where}: {key} must be a hash from 'cribbage-door sysop-password', not a password"
        )
    if expected is dict:
        return _check_systems(where, key, value)
    if key == "cluster.redis_url" and value and not value.startswith(_REDIS_SCHEMES):
        raise ConfigError(f"{where}: {key} must be a redis:// URL, not {value!r}")
    if key == "hub.address" and value and not _is_host_port(value):
        raise ConfigError(
            f"{where}: {key} must be host:port ([::1]:2513 for an IPv6 address), not {value!r}"
        )
    if key == "web.allowed_origins":
        if not isinstance(value, list | tuple) or not all(
            isinstance(item, str) and item.startswith(("http://", "https://")) for item in value
        ):
            raise ConfigError(f'{where}: {key} must be a list of origins ("https://bbs.example")')
        return tuple(value)
    if key == "chat.masked_words":
        return _checked_words(where, key, value)
    if key in ("server.proxy_addresses", "web.trusted_proxies"):
        try:
            # No balancer at all makes proxy_protocol pointless; no proxy trusted is a
            # door that takes every web caller's address from its socket.
            if not isinstance(value, list | tuple) or (not value and key != "web.trusted_proxies"):
                raise ValueError
            for item in value:
                ipaddress.ip_network(str(item).strip(), strict=False)
        except ValueError:
            raise ConfigError(
                f'{where}: {key} must be a list of addresses or networks ("10.0.0.0/8")'
            ) from None
        return tuple(str(item) for item in value)
    if expected is tuple:
        if not isinstance(value, list | tuple) or not all(
            isinstance(item, str) and len(item.split()) >= 2 for item in value
        ):
            raise ConfigError(
                f"{where}: {key} must be a list of public key lines ('ssh-ed25519 AAAA...')"
            )
        value = tuple(item.strip() for item in value)
    if key in _CHOICES and value not in _CHOICES[key]:
        raise ConfigError(
            f"{where}: {key} must be one of {', '.join(_CHOICES[key])}, not {value!r}"
        )
    if key in _RANGES:
        low, high = _RANGES[key]
        if not low <= value <= high:
            raise ConfigError(f"{where}: {key} must be from {low} to {high}, not {value}")
    return value


def _checked_words(where: str, key: str, value: Any) -> tuple[str, ...]:
    """A list of words (letters, digits, ' and -, no spaces), at most MAX_MASKED_WORDS."""
    if not isinstance(value, list | tuple) or not all(
        isinstance(item, str) and item.strip() and len(item.split()) == 1 and len(item) <= 40
        for item in value
    ):
        raise ConfigError(f'{where}: {key} must be a list of single words ("darn", "heck")')
    if len(value) > MAX_MASKED_WORDS:
        raise ConfigError(f"{where}: {key} holds more than {MAX_MASKED_WORDS} words")
    return tuple(item.strip() for item in value)


def _check_systems(where: str, key: str, value: Any) -> tuple[tuple[str, str], ...]:
    """``{ "10.0.0.5" = "DOORNET" }``: addresses (IPv4 or IPv6) to system tags."""
    if not isinstance(value, dict):
        raise ConfigError(f'{where}: {key} must be a table of address = "TAG"')
    systems = []
    for address, tag in value.items():
        try:
            ipaddress.ip_address(address)
        except ValueError:
            raise ConfigError(f"{where}: {key} has {address!r}, not an IP address") from None
        if not isinstance(tag, str) or not tag.strip() or len(tag) > 60:
            raise ConfigError(f"{where}: {key}.{address} must be a tag of 1 to 60 characters")
        systems.append((address, tag.strip()))
    return tuple(systems)


def host_and_port(address: str) -> tuple[str, int]:
    """The host and port of ``host:port``, an IPv6 address in brackets as in a URL
    (``[::1]:2513``). Raises ValueError for anything else, an IPv6 address without its
    brackets too: in "2001:db8::1:2513" the port could be the address's last group.

    >>> host_and_port("bbs.example:2513"), host_and_port("[::1]:2513")
    (('bbs.example', 2513), ('::1', 2513))
    """
    host, colon, port = address.rpartition(":")
    if not colon or not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError(f"no port (1 to 65535) at the end of {address!r}")
    if host.startswith("[") and host.endswith("]"):
        host = host[1:-1]
        ipaddress.IPv6Address(host)  # a ValueError names what is wrong with it
    elif ":" in host or "[" in host or "]" in host:
        raise ValueError(f"an IPv6 address goes in brackets ([::1]:2513), not {address!r}")
    if not host:
        raise ValueError(f"no host in {address!r}")
    return host, int(port)


def _is_host_port(value: str) -> bool:
    try:
        host_and_port(value)
    except ValueError:
        return False
    return True


def config_from_mapping(data: dict[str, Any], where: str = "config") -> Config:
    """Build a Config from parsed TOML (or any nested mapping); raises ConfigError."""
    sections: dict[str, Any] = {}
    for section_name, section_cls in _SECTIONS.items():
        raw = data.get(section_name, {})
        if not isinstance(raw, dict):
            raise ConfigError(f"{where}: [{section_name}] must be a table")
        known = {f.name: f for f in dataclasses.fields(section_cls)}
        values = {}
        for key, value in raw.items():
            dotted = f"{section_name}.{key}"
            if key not in known:
                raise ConfigError(f"{where}: unknown key {dotted}")
            # annotations are strings under `from __future__ import annotations`
            expected = {
                "int": int,
                "str": str,
                "bool": bool,
                "float": float,
                "tuple[str, ...]": tuple,
                "tuple[tuple[str, str], ...]": dict,
            }[str(known[key].type)]
            values[key] = _check_value(where, dotted, expected, value)
        sections[section_name] = section_cls(**values)
    # [database] is checked by the storage layer's own reader, which knows its rules.
    try:
        database = database_settings_from_mapping(data.get("database", {}), where)
    except DatabaseSettingsError as error:
        raise ConfigError(str(error)) from None
    for name in data:
        if name not in sections and name != "database":
            raise ConfigError(f"{where}: unknown section [{name}]")
    config = Config(**sections, database=database)
    if config.server.reserved_sessions >= config.server.max_sessions:
        raise ConfigError(
            f"{where}: server.reserved_sessions must be less than server.max_sessions"
        )
    if config.server.idle_warning_seconds >= config.server.idle_timeout_seconds:
        raise ConfigError(
            f"{where}: server.idle_warning_seconds must be less than server.idle_timeout_seconds"
        )
    return config


def load_config(path: Path | None = None) -> Config:
    """Read ``path``, or else the first file of the search order (door/paths.py), or
    else use the packaged defaults. A relative ``server.data_dir`` is made absolute from
    the file's folder.

    Raises ConfigError for a file named but missing, unreadable, not TOML, or
    holding a bad value.
    """
    location = find_config(path)
    if location.path is None:
        return Config(location=location)
    path = location.path
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ConfigError(f"{path}: no such config file ({location.found_by})") from None
    except IsADirectoryError:
        raise ConfigError(f"{path}: is a folder, not a config file") from None
    except (OSError, UnicodeDecodeError) as error:
        raise ConfigError(f"{path}: cannot read it ({error})") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{path}: not valid TOML: {error}") from None
    config = config_from_mapping(data, str(path))
    data_dir = config.server.data_dir
    if data_dir and not Path(data_dir).expanduser().is_absolute():
        anchored = str((path.parent / data_dir).absolute())
        config = dataclasses.replace(
            config, server=dataclasses.replace(config.server, data_dir=anchored)
        )
    return dataclasses.replace(config, location=location)


def with_overrides(config: Config, **overrides: Any) -> Config:
    """Apply command-line flags (None means not given) to the server section, checked.
    A relative ``data_dir`` flag is taken from the current folder."""
    server = {key: value for key, value in overrides.items() if value is not None}
    if not server:
        return config
    if server.get("data_dir"):
        server["data_dir"] = str(Path(server["data_dir"]).expanduser().absolute())
    merged = {**dataclasses.asdict(config.server), **server}
    checked = config_from_mapping({"server": merged}, "command line")
    return dataclasses.replace(config, server=checked.server)
