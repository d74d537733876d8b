"""The ``cribbage-door`` command: serve (the default), console, init, systemd-unit, door,
sysop-password, replay, status, winprob, db, user, audit, ban, selfplay.

With no command, or ``serve``, it runs the door server; ``console`` runs it with the sysop
at this terminal; ``init [DIR]`` writes an editable door.toml, help and art;
``systemd-unit`` prints a unit to run it as a service; ``sysop-password`` prints the hash
for ``[sysop] password_hash``; ``replay GAME_ID`` prints a game from the database as text;
``db backup|restore|copy|check`` and ``user export`` look after the database; ``status``
prints the running door's state from its metrics port; ``user list|show|reset-password|
lock|unlock|rename|delete|note``, ``ban add|list|remove`` and ``audit`` are the sysop's
tools from the shell, on the same database whether the door runs or not.

An option below that a command takes too (--config and --data-dir: serve, console, door,
replay, db, user, audit, ban; --config and --metrics-port: status too; --workers: serve; the rest:
serve, console) goes before the command or after it:
``cribbage-door --config FILE serve`` is ``cribbage-door serve --config FILE``.
"""

from __future__ import annotations

import argparse
import functools
import random
import sys
import time
from collections.abc import Sequence
from typing import Any

from engine.computer.selfplay import (
    PlayerFactory,
    RandomPlayer,
    Totals,
    run_selfplay,
    wilson_interval,
)

PLAYER_KINDS = ("random", "easy", "normal", "expert", "master")


def player_factory(kind: str) -> PlayerFactory:
    """A factory for a seat: "random" plays any legal card; the rest are computer levels."""
    if kind == "random":
        return RandomPlayer
    from engine.computer.player import ComputerPlayer

    def make(rng: random.Random) -> ComputerPlayer:
        return ComputerPlayer(kind, rng)

    return make


class CommandLine(argparse.ArgumentParser):
    """The top level. Its options (``--config``, the ports, ``--workers``) serve the
    default command, and those a command takes too may come before it or after it: one
    given before a command that does not take it is refused, where argparse would
    quietly drop it."""

    def __init__(self, **kwargs: Any) -> None:
        # Set before argparse's __init__, which adds -h through add_argument.
        self.option_flags: dict[str, str] = {}
        """Each of the top level's options with a value: its dest and its flag."""
        self.commands: dict[str, Command] = {}
        super().__init__(**kwargs)

    def add_argument(self, *args: Any, **kwargs: Any) -> argparse.Action:
        action = super().add_argument(*args, **kwargs)
        if action.option_strings and action.default is not argparse.SUPPRESS:
            self.option_flags[action.dest] = action.option_strings[0]
        return action

    def add_command(self, commands: Any, name: str, **kwargs: Any) -> Command:
        """A command, under ``commands`` (this parser's subparsers)."""
        parser: Command = commands.add_parser(name, shared=frozenset(self.option_flags), **kwargs)
        self.commands[name] = parser
        return parser

    # argparse types this by overloads, which one override cannot repeat.
    def parse_known_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> tuple[argparse.Namespace, list[str]]:
        parsed, rest = super().parse_known_args(args, namespace)
        command = self.commands.get(getattr(parsed, "command", None) or "")
        if command is not None:
            for dest, flag in self.option_flags.items():
                if dest not in command.takes and getattr(parsed, dest, None) is not None:
                    command.error(f"{flag} is not an option of {command.name}")
        return parsed, rest


class Command(argparse.ArgumentParser):
    """A command's parser. argparse parses a command into a namespace of its own and
    copies every value over the top level's, defaults included, so that
    ``--config F serve`` would read as ``serve`` with no config. An option shared with
    the top level therefore has no default here: not given after the command, it
    keeps what was given before it (or the top level's default)."""

    def __init__(self, *, shared: frozenset[str], **kwargs: Any) -> None:
        # Set before argparse's __init__, which adds -h through add_argument.
        self.shared = shared
        self.takes: set[str] = set()
        """The top level's options (dests) that this command takes too."""
        super().__init__(**kwargs)
        self.name = self.prog.rsplit(" ", 1)[-1]

    def add_argument(self, *args: Any, **kwargs: Any) -> argparse.Action:
        action = super().add_argument(*args, **kwargs)
        if action.dest in self.shared:
            action.default = argparse.SUPPRESS
            self.takes.add(action.dest)
        return action


def build_parser() -> CommandLine:
    from door import version
    from door.ban_commands import add_ban_commands
    from door.db_commands import add_db_commands
    from door.metrics.status import add_status_arguments
    from door.replay import add_replay_arguments
    from door.serve import add_serve_arguments, add_worker_arguments
    from door.setup_files import add_init_arguments
    from door.transports.door_mode import add_door_arguments

    parser = CommandLine(
        prog="cribbage-door",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"cribbage-door {version()}")
    add_serve_arguments(parser)
    add_worker_arguments(parser)
    commands = parser.add_subparsers(dest="command", parser_class=Command)
    serve = parser.add_command(commands, "serve", help="run the door server (the default)")
    add_serve_arguments(serve)
    add_worker_arguments(serve)
    console = parser.add_command(
        commands, "console", help="run the door server with the sysop at this terminal"
    )
    add_serve_arguments(console)
    console.add_argument(
        "--log-file",
        metavar="FILE",
        help="where the log goes (default: door-console.log in the data folder)",
    )
    init = parser.add_command(
        commands, "init", help="write an editable door.toml, help text and art (never overwrites)"
    )
    add_init_arguments(init)
    parser.add_command(commands, "systemd-unit", help="print a systemd unit that runs the door")
    door_mode = parser.add_command(
        commands,
        "door",
        help="run one BBS caller's session from a drop file (DOOR32.SYS, DOOR.SYS)",
    )
    add_door_arguments(door_mode)
    parser.add_command(
        commands,
        "sysop-password",
        help="ask for the sysop's password and print its hash for the config",
    )
    replay = parser.add_command(commands, "replay", help="print a game from the database as text")
    add_replay_arguments(replay)
    status = parser.add_command(
        commands, "status", help="the running door's callers, games, keys and health"
    )
    add_status_arguments(status)
    winprob = parser.add_command(
        commands, "winprob", help="each player's chance to win from the scores before a deal"
    )
    winprob.add_argument(
        "scores",
        type=int,
        nargs="+",
        metavar="SCORE",
        help="seat 1's, seat 2's (, seat 3's); with --players 4 the two partnerships'",
    )
    winprob.add_argument(
        "--dealer", type=int, required=True, metavar="SEAT", help="who deals next (from 1)"
    )
    winprob.add_argument(
        "--players",
        type=int,
        choices=(2, 3, 4),
        help="seats at the table (default: one per score; 4 takes two partnership scores)",
    )
    add_db_commands(functools.partial(parser.add_command, commands))
    add_ban_commands(functools.partial(parser.add_command, commands))
    selfplay = parser.add_command(
        commands, "selfplay", help="play whole games between computer players"
    )
    selfplay.add_argument("--games", type=int, default=1000)
    selfplay.add_argument("--seed", type=int, default=1)
    selfplay.add_argument("--players", type=int, choices=(2, 3, 4), default=2)
    selfplay.add_argument("--runs", choices=("free", "exact"), default="free")
    selfplay.add_argument("--counting", choices=("auto", "manual"), default="auto")
    selfplay.add_argument("--a", choices=PLAYER_KINDS, default="random", help="player A")
    selfplay.add_argument("--b", choices=PLAYER_KINDS, default="random", help="player B")
    return parser


def format_totals(totals: Totals, seconds: float, a: str, b: str) -> str:
    lines = []
    games_per_second = totals.games / seconds if seconds else 0.0
    lines.append(
        f"Games: {totals.games:,} in {seconds:.1f} s ({games_per_second:,.0f} games/s), "
        f"{totals.hands:,} complete hands, {totals.actions:,} actions, no illegal state"
    )
    seat_labels = []
    for seat, wins in enumerate(totals.wins_by_seat):
        share = wins / totals.games if totals.games else 0.0
        seat_labels.append(f"seat {seat + 1} {wins:,} ({share:.1%})")
    lines.append("Wins by seat: " + ", ".join(seat_labels))
    a_wins = totals.wins_by_label.get("A", 0)
    low, high = wilson_interval(a_wins, totals.games)
    rate = a_wins / totals.games if totals.games else 0.0
    lines.append(
        f"A ({a}) against B ({b}): A wins {a_wins:,} of {totals.games:,} = {rate:.1%} "
        f"(95% CI {low:.1%} to {high:.1%})"
    )
    lines.append(f"Skunks: {totals.skunks:,}, double skunks: {totals.double_skunks:,}")
    lines.append("")
    categories = ("pegging", "hand", "crib", "heels", "muggins")
    lines.append(f"{'points per hand':<16}" + "".join(f"{c:>9}" for c in categories) + "    total")
    roles = sorted(
        {role for role, _ in totals.points_by_role},
        key=lambda role: (role != "dealer", role),
    )
    for role in roles:
        values = [totals.average(role, category) for category in categories]
        row = "".join(f"{value:9.2f}" for value in values)
        lines.append(f"{role:<16}{row}{sum(values):9.2f}")
    return "\n".join(lines)


def selfplay_command(args: argparse.Namespace) -> int:
    if args.games < 1:
        print("cribbage-door: --games must be at least 1", file=sys.stderr)
        return 2
    print(
        f"Self-play: {args.games:,} games, {args.players} players, runs {args.runs}, "
        f"counting {args.counting}, seed {args.seed}, A={args.a} B={args.b}"
    )
    started = time.perf_counter()
    totals = run_selfplay(
        args.games,
        args.seed,
        players=args.players,
        runs=args.runs,
        a=player_factory(args.a),
        b=player_factory(args.b),
        counting=args.counting,
    )
    print(format_totals(totals, time.perf_counter() - started, args.a, args.b))
    return 0


def winprob_command(args: argparse.Namespace) -> int:
    """Print each side's chance to win before the deal; seats are numbered from 1."""
    from engine.odds.winprob import win_chances
    from engine.rules.errors import CribbageError

    players = args.players or len(args.scores)
    if not 1 <= args.dealer <= players:
        print(
            f"cribbage-door winprob: --dealer must be a seat from 1 to {players}",
            file=sys.stderr,
        )
        return 2
    try:
        chances = win_chances(args.scores, args.dealer - 1, players)
    except CribbageError as error:
        print(f"cribbage-door winprob: {error}", file=sys.stderr)
        return 2
    print(f"Before the deal, seat {args.dealer} dealing:")
    width = max(len(str(score)) for score in args.scores)
    for side, (score, chance) in enumerate(zip(args.scores, chances, strict=True)):
        if players == 4:
            seats = f"seats {side + 1} and {side + 3}"
            role = "dealer" if (args.dealer - 1) % 2 == side else "pone"
            print(f"  {seats} ({role:<6} on {score:>{width}}): {chance:6.1%}")
        else:
            role = "dealer" if side + 1 == args.dealer else "pone"
            print(f"  seat {side + 1} ({role:<6} on {score:>{width}}): {chance:6.1%}")
    return 0


def sysop_password_command() -> int:
    """Ask twice for a password (without echo) and print the config line with its hash."""
    import getpass

    from door.app.sysop import hash_password

    password = getpass.getpass("Sysop password: ")
    if len(password) < 8:
        print("cribbage-door: use at least 8 characters", file=sys.stderr)
        return 2
    if getpass.getpass("Again: ") != password:
        print("cribbage-door: the two passwords differ", file=sys.stderr)
        return 2
    print(f'password_hash = "{hash_password(password)}"')
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.command == "selfplay":
        return selfplay_command(args)
    if args.command == "winprob":
        return winprob_command(args)
    if args.command == "console":
        from door.transports.console import console_command

        return console_command(args)
    if args.command == "door":
        from door.transports.door_mode import door_command

        return door_command(args)
    if args.command in ("init", "systemd-unit"):
        from door.setup_files import init_command, systemd_unit_command

        return init_command(args) if args.command == "init" else systemd_unit_command(args)
    if args.command == "sysop-password":
        return sysop_password_command()
    if args.command in ("audit", "user"):
        from door.member_commands import MEMBER_ACTIONS, member_command

        if args.command == "audit" or args.user_command in MEMBER_ACTIONS:
            return member_command(args)
    if args.command in ("db", "user"):
        from door.db_commands import db_command

        return db_command(args)
    if args.command == "ban":
        from door.ban_commands import ban_command

        return ban_command(args)
    if args.command == "replay":
        from door.replay import replay_command

        return replay_command(args)
    if args.command == "status":
        from door.metrics.status import status_command

        return status_command(args)
    from door.serve import serve_command

    return serve_command(args)


if __name__ == "__main__":
    sys.exit(main())
