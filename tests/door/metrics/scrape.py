"""Reading a door's metrics and health pages over HTTP, as Prometheus and HAProxy do."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import aiohttp
from prometheus_client.parser import text_string_to_metric_families

Samples = dict[tuple[str, frozenset[tuple[str, str]]], float]


async def get(port: int, page: str) -> tuple[int, str]:
    """The status and body of ``page`` on 127.0.0.1:``port``."""
    async with (
        aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=10)) as session,
        session.get(f"http://127.0.0.1:{port}{page}") as response,
    ):
        return response.status, await response.text()


async def scrape(port: int) -> tuple[str, Samples]:
    """``/metrics`` as text and as samples, parsed by prometheus_client's own parser."""
    status, text = await get(port, "/metrics")
    assert status == 200, text
    samples: Samples = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            samples[(sample.name, frozenset(sample.labels.items()))] = sample.value
    return text, samples


def value(samples: Samples, name: str, **labels: str) -> float | None:
    return samples.get((name, frozenset(labels.items())))


async def until_metrics(
    port: int, holds: Callable[[Samples], bool], timeout: float = 30.0
) -> tuple[str, Samples]:
    """Scrape until ``holds`` is true of the samples; fails showing the last scrape."""
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        text, samples = await scrape(port)
        if holds(samples):
            return text, samples
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError(f"the metrics never got there:\n{text}")
        await asyncio.sleep(0.1)


async def until_status(port: int, page: str, status: int, timeout: float = 30.0) -> str:
    """Ask ``page`` until it answers ``status``; its body."""
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        try:
            got, body = await get(port, page)
        except aiohttp.ClientError:
            got, body = 0, "(no answer)"
        if got == status:
            return body
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError(f"{page} answered {got}, never {status}: {body}")
        await asyncio.sleep(0.1)
