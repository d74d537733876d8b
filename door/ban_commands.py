"""``cribbage-door ban add|list|remove``: the sysop's bans from the shell, on the database
``serve`` would use (same ``--config`` and ``--data-dir``), whether the door runs or not.
A running door reads the change within door/app/moderation.py's REFRESH_SECONDS and turns
away whoever it covers, connected or not; every change is written to the audit as
``shell:<unix user>``.

A linked BBS's callers (``[rlogin] systems``) all come from its address: ``ban add`` of
that address bars every one of them, and is made only with ``--whole-bbs``; one of its
callers is banned by name (handle:NAME).

Each prints what it did, or one line saying why it could not, and exits 0 when done, 1
when the database said no (an unknown ban, a ban that would cover the sysop's own
address or a linked BBS's), 2 for a bad command line, address or config.
"""

from __future__ import annotations

import argparse
import asyncio
import os
from collections.abc import Callable, Coroutine
from typing import TYPE_CHECKING, Any

from door.shell_store import (
    BAD_USAGE_EXIT,
    CommandFailed,
    add_place_arguments,
    command_config,
    exit_status,
    shell_actor,
    with_store,
)

if TYPE_CHECKING:
    from door.config import Config
    from door.storage.store import Store


def add_ban_commands(new_command: Callable[..., argparse.ArgumentParser]) -> None:
    """Add ``ban`` through ``new_command(name, help=...)`` (see door.db_commands)."""
    ban = new_command("ban", help="turn an address, a network or a handle away from the door")
    add_place_arguments(ban)
    actions = ban.add_subparsers(
        dest="ban_command", metavar="ACTION", required=True, parser_class=argparse.ArgumentParser
    )
    add = actions.add_parser(
        "add", help="ban ADDRESS, a network (CIDR, e.g. 10.0.0.0/24) or handle:NAME"
    )
    add.add_argument("target", metavar="ADDRESS|CIDR|handle:NAME")
    add.add_argument("--hours", type=float, metavar="N", help="how long (default: for good)")
    add.add_argument("--reason", required=True, metavar="TEXT", help="what the caller is told")
    add.add_argument(
        "--force", action="store_true", help="even if it covers an address of the sysop's own"
    )
    add.add_argument(
        "--whole-bbs",
        action="store_true",
        help="even if it is a linked BBS's address ([rlogin] systems): every caller of it",
    )
    actions.add_parser("list", help="the bans in force")
    remove = actions.add_parser("remove", help="lift ban number ID")
    remove.add_argument("id", type=int, metavar="ID")
    for action in actions.choices.values():
        add_place_arguments(action)


def shell_addresses() -> list[str]:
    """The address the sysop's SSH session comes from, when the shell is one."""
    ssh_client = os.environ.get("SSH_CLIENT", "").split()
    return ssh_client[:1]


def ban_command(args: argparse.Namespace) -> int:
    """Run ``ban ACTION``; the exit status."""
    name = f"ban {args.ban_command}"
    run: dict[str, Callable[[Store, argparse.Namespace, Config], Coroutine[Any, Any, None]]] = {
        "add": _add,
        "list": _list,
        "remove": _remove,
    }

    def work() -> None:
        config = command_config(args)
        asyncio.run(with_store(config, lambda store: run[args.ban_command](store, args, config)))

    return exit_status(name, work)


async def _add(store: Store, args: argparse.Namespace, config: Config) -> None:
    from door.app.moderation import (
        LOOPBACK,
        CoversLinkedBbs,
        CoversOwnAddress,
        ModerationError,
        add_ban,
    )
    from door.defence.bans import ending

    own = [*LOOPBACK, *shell_addresses(), *await store.sysop_addresses(config.sysop.name)]
    try:
        ban = await add_ban(
            store,
            args.target,
            args.reason,
            args.hours,
            shell_actor(),
            own_addresses=own,
            force=args.force,
            linked=config.rlogin.system_by_address,
            whole_bbs=args.whole_bbs,
        )
    except CoversOwnAddress as error:
        raise CommandFailed(f"{error} --force bans it anyway.") from None
    except CoversLinkedBbs as error:
        raise CommandFailed(f"{error} --whole-bbs bans it anyway.") from None
    except ModerationError as error:
        raise CommandFailed(str(error), BAD_USAGE_EXIT) from None
    print(f"ban #{ban.id}: {ban.target} {ending(ban.until)} ({ban.reason})")


async def _list(store: Store, args: argparse.Namespace, config: Config) -> None:
    from door.defence.bans import ending

    bans = await store.bans_in_force()
    if not bans:
        print("no bans in force")
        return
    print(f"{'id':>5}  {'target':<28} {'ends':<26} {'by':<16} reason")
    for ban in bans:
        print(
            f"{ban.id:>5}  {str(ban.target):<28} {ending(ban.until):<26} "
            f"{ban.actor[:16]:<16} {ban.reason}"
        )


async def _remove(store: Store, args: argparse.Namespace, config: Config) -> None:
    from door.app.moderation import lift_ban
    from door.storage.bans import BanNotFoundError

    try:
        ban = await lift_ban(store, args.id, shell_actor())
    except BanNotFoundError as error:
        raise CommandFailed(str(error)) from None
    print(f"ban #{ban.id} on {ban.target} lifted")
