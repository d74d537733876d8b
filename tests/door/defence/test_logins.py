"""Password guessing is slowed per account and address, never locks the owner out from
their own address, and one connection gets three tries."""

from __future__ import annotations

import asyncio
import doctest

import pytest

import door.defence.logins
from door.defence.logins import (
    ADDRESS_REFUSED,
    MAX_DELAY_SECONDS,
    LoginAttempts,
    LoginGuard,
    TooManyTries,
)
from door.storage.errors import LoginError


def test_module_examples_run() -> None:
    assert doctest.testmod(door.defence.logins).failed == 0


def _guard() -> tuple[LoginGuard, list[float]]:
    now = [0.0]
    return LoginGuard(clock=lambda: now[0]), now


@pytest.mark.parametrize(
    ("failures", "delay"),
    [(0, 0.0), (1, 0.0), (2, 0.0), (3, 2.0), (4, 4.0), (6, 16.0), (40, MAX_DELAY_SECONDS)],
)
def test_delays_grow_with_the_failures_of_one_account_from_one_address(
    failures: int, delay: float
) -> None:
    guard, _ = _guard()
    for _ in range(failures):
        guard.failed("Ada", "10.0.0.9")
    assert guard.delay("ada", "10.0.0.9") == delay
    assert guard.delay("Ada", "10.0.0.1") == 0.0  # the owner, at home, waits for nothing


def test_an_address_failing_across_many_accounts_is_refused_for_all_of_them() -> None:
    guard, now = _guard()
    for handle in ("ada", "bob", "cy", "dee", "eve"):
        guard.failed(handle, "10.0.0.9")
    assert guard.refused("10.0.0.9")
    assert not guard.refused("10.0.0.1")
    now[0] += 16 * 60
    assert not guard.refused("10.0.0.9")


def test_an_address_hammering_one_account_is_refused_in_the_end() -> None:
    guard, _ = _guard()
    for _ in range(15):
        guard.failed("ada", "10.0.0.9")
    assert guard.refused("10.0.0.9")
    assert not guard.refused("10.0.0.1")


def test_failures_are_forgotten_after_the_window() -> None:
    guard, now = _guard()
    for _ in range(6):
        guard.failed("ada", "10.0.0.9")
    now[0] += 16 * 60
    assert guard.delay("ada", "10.0.0.9") == 0.0


def _check(accounts: dict[str, str], handle: str, password: str):  # type: ignore[no-untyped-def]
    async def check() -> str:
        if accounts.get(handle.casefold()) != password:
            raise LoginError("Wrong handle or password.")
        return handle

    return check


def test_a_connection_gets_three_tries_and_the_same_answer_for_an_unknown_handle() -> None:
    async def scenario() -> tuple[list[str], bool]:
        guard, _ = _guard()
        slept: list[float] = []

        async def sleep(seconds: float) -> None:
            slept.append(seconds)

        attempts = LoginAttempts(guard, "10.0.0.9", sleep=sleep)
        accounts = {"ada": "right one"}
        answers = []
        for handle in ("ada", "nobody", "ada"):
            with pytest.raises(LoginError) as wrong:
                await attempts.verify(handle, _check(accounts, handle, "guess"))
            answers.append(str(wrong.value))
        try:
            await attempts.verify("ada", _check(accounts, "ada", "right one"))
        except TooManyTries:
            return answers, True
        return answers, False

    answers, stopped = asyncio.run(scenario())
    assert answers == ["Wrong handle or password."] * 3
    assert stopped


def test_the_owner_logs_in_at_once_while_another_address_hammers_the_password() -> None:
    async def scenario() -> tuple[list[float], str]:
        guard, _ = _guard()
        slept: list[float] = []

        async def sleep(seconds: float) -> None:
            slept.append(seconds)

        accounts = {"ada": "right one"}
        for _ in range(10):
            attacker = LoginAttempts(guard, "10.0.0.9", sleep=sleep)
            for _ in range(3):
                with pytest.raises(LoginError):
                    await attacker.verify("ada", _check(accounts, "ada", "guess"))
        attacker_sleeps = list(slept)
        slept.clear()
        owner = LoginAttempts(guard, "10.0.0.1", sleep=sleep)
        name = await owner.verify("ada", _check(accounts, "ada", "right one"))
        assert slept == []
        return attacker_sleeps, name

    attacker_sleeps, name = asyncio.run(scenario())
    assert name == "ada"
    assert attacker_sleeps and max(attacker_sleeps) >= 8  # the attacker was slowed down


def test_a_refused_address_is_refused_before_the_password_is_checked() -> None:
    async def scenario() -> str:
        guard, _ = _guard()
        for handle in ("a1", "a2", "a3", "a4", "a5"):
            guard.failed(handle, "10.0.0.9")
        checked = []

        async def check() -> str:
            checked.append(True)
            return "ada"

        with pytest.raises(LoginError) as refused:
            await LoginAttempts(guard, "10.0.0.9").verify("ada", check)
        assert not checked
        return str(refused.value)

    assert asyncio.run(scenario()) == ADDRESS_REFUSED
