"""Load bench: telnet and SSH callers playing whole games against the computer.

    python bench/load.py --telnet 1000 --ssh 200 --server-cpu 0 --generator-cpu 1
    python bench/load.py --sweep 100,200,400,800 --ssh-share 0.17

The server is the real door (``python -m door.cli``), started with the shipped settings
(only its ports and a fresh data folder are given) in a process of its own, pinned to
``--server-cpu`` with taskset when asked; this process, the load generator, pins itself
to ``--generator-cpu``. Each caller connects from an address of its own in 127.0.0.0/8
(the door limits connections per address, as it should), signs in as a guest, starts a
game against the computer and plays game after game (bench/load_bot.py): bar moves,
throws, cuts, plays, goes, the next deal; about ``--think`` seconds between keys.

Every key is timed from its sending to the first byte of the screen it causes, and every
key counts: one unanswered after 5 s is a failure and is in the percentiles (as 5 s).
Reported for the measured window (after everyone has signed in): key to screen p50, p95,
p99, p99.9 and max; keys a second per caller; the server's CPU per key; its RSS per
session; the longest garbage-collection pause in the server while measured (door/gc_watch.py);
sign-in failures; the generator's own CPU (near 100% means the bench, not the server,
is the limit); the win bar's lag as the callers saw it (from a screen that showed the
bar dimmed, its new moment's figure not worked out yet, to the bar shown current: p50,
p99, and how many screens showed it dimmed) and the share of moments whose bar the door skipped
because the game moved on first (from its metrics, which the bench always serves); and,
from the same metrics, the milliseconds a key the door spent working out win bars
(``bar/key``) and waiting for the computer's decisions (``cpt/key``), on the wall clock
(the server's core is its own when pinned). With
``--sweep`` the server is started afresh for each count and the largest count with p99
under 50 ms is named. ``--full-gc`` has the server run a full collection half-way
through the window (the shipped thresholds make one rare), so the GC figures show what
it costs at that load; its pause is then in the key latencies too.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from load_bot import KEY_TIMEOUT, Bot, run_ssh, run_telnet  # noqa: E402

P99_TARGET_MS = 50.0
CHECKOUT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def process_tree(pid: int) -> list[int]:
    """``pid`` and its children (a door started with --workers is a parent and workers)."""
    pids = [pid]
    for task in Path(f"/proc/{pid}/task").glob("*/children"):
        pids += [int(child) for child in task.read_text().split()]
    return pids


def tree_cpu_seconds(pid: int) -> float:
    return sum(cpu_seconds(each) for each in process_tree(pid))


def tree_rss_kib(pid: int) -> int:
    return sum(rss_kib(each) for each in process_tree(pid))


def source_address(index: int) -> str:
    """A loopback address of the caller's own: 127.1.0.1, 127.1.0.2, ..."""
    return f"127.1.{index // 250}.{index % 250 + 1}"


@dataclass
class Figures:
    callers: int
    telnet: int
    ssh: int
    keys: int
    failures: int
    percentiles_ms: dict[str, float]
    keys_per_caller_second: float
    cpu_ms_per_key: float
    server_cpu_share: float
    rss_kib_per_session: float
    gc_max_pause_ms: float | None
    sign_in_failures: int
    sign_in_p99_s: float
    generator_cpu_share: float
    bytes_per_key: float
    problems: list[str]
    window: tuple[float, float]
    """When the measured window began and ended (time.monotonic())."""
    bar_lag_ms: dict[str, float]
    """From a screen that showed the win bar dimmed (a new moment, its bar not worked out
    yet) to the bar shown current, as the callers saw it."""
    bar_waits: int
    """Screens that showed the bar dimmed (bar_lag_ms has those that ended current)."""
    bar_skipped_share: float | None
    """Of the moments whose bar was asked for, the share skipped (the game moved on
    first), from the door's counts; None for a door that does not count them."""
    frames_per_key: float
    """Frames (screen updates) the door sent in the window, a key: a bar of its own is one."""
    bar_ms_per_key: float | None = None
    """The door's time working out win bars in the window (on its loop, on the wall
    clock: the server has its core to itself), a key; None from a door that does not say."""
    computer_ms_per_key: float | None = None
    """The door's time deciding for the computer in the window (quick decisions on the
    loop, the rest on its threads, the queue for them included), a key."""

    @property
    def p99_ok(self) -> bool:
        return self.percentiles_ms["p99"] <= P99_TARGET_MS and self.sign_in_failures == 0


def percentile(ordered: list[float], share: float) -> float:
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


class Server:
    """The door in a process of its own, with the shipped settings."""

    def __init__(
        self,
        cpu: str | None,
        workers: int = 1,
        redis_url: str | None = None,
        metrics: bool = False,
        win_bar: str | None = None,
        code: Path = CHECKOUT,
    ) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="cribbage-load-"))
        self.redis: subprocess.Popen[bytes] | None = None
        self.telnet_port, self.ssh_port = free_port(), free_port()
        # Always served, read at the window's start and end for the win bar's counts;
        # ``metrics`` scrapes it every few seconds besides, as Prometheus would.
        self.metrics_port = free_port()
        self.gc_report = self.folder / "gc.json"
        command = [
            sys.executable,
            "-m",
            "door.cli",
            "--telnet-port",
            str(self.telnet_port),
            "--ssh-port",
            str(self.ssh_port),
            "--data-dir",
            str(self.folder / "data"),
        ]
        command += ["--metrics-port", str(self.metrics_port)]
        settings = f'[game]\nwin_bar = "{win_bar}"\n' if win_bar is not None else ""
        if workers > 1:
            # Several workers share the ports and, through Redis, the lobby (README).
            if redis_url is None:
                redis_port = free_port()
                self.redis = subprocess.Popen(
                    ["redis-server", "--port", str(redis_port), "--save", "",
                     "--dir", str(self.folder)],
                    stdout=subprocess.DEVNULL,
                )  # fmt: skip
                redis_url = f"redis://127.0.0.1:{redis_port}/0"
            settings += f'[cluster]\nredis_url = "{redis_url}"\n'
            command += ["--workers", str(workers)]
        if settings:
            config = self.folder / "door.toml"
            config.write_text(settings)
            command += ["--config", str(config)]
        if cpu is not None and shutil.which("taskset"):
            command = ["taskset", "-c", str(cpu), *command]
        env = {
            **os.environ,
            "CRIBBAGE_GC_REPORT": str(self.gc_report),
            "HOME": str(self.folder),
            # The door of this checkout (or --code), not whichever one is installed: the
            # server runs in its own folder, where ``-m door.cli`` would find the latter.
            "PYTHONPATH": os.pathsep.join(filter(None, [str(code), os.environ.get("PYTHONPATH")])),
        }
        self.log = (self.folder / "server.log").open("wb")
        self.process = subprocess.Popen(
            command, stdout=subprocess.DEVNULL, stderr=self.log, env=env, cwd=self.folder
        )

    def wait_ready(self, timeout: float = 60.0) -> None:
        deadline = time.monotonic() + timeout
        waiting = {self.telnet_port, self.ssh_port}
        while waiting:
            if time.monotonic() > deadline or self.process.poll() is not None:
                raise RuntimeError(f"the server did not start: see {self.folder}/server.log")
            for port in list(waiting):
                try:
                    socket.create_connection(("127.0.0.1", port), 0.2).close()
                    waiting.discard(port)
                except OSError:
                    time.sleep(0.1)

    def stop(self) -> dict[str, Any] | None:
        """Stop it; its garbage-collection report (door/gc_watch.py), None if it wrote none."""
        self.process.terminate()
        try:
            self.process.wait(60)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.log.close()
        if self.redis is not None:
            self.redis.terminate()
        try:
            report: dict[str, Any] = json.loads(self.gc_report.read_text())
        except (OSError, ValueError):
            return None
        return report


def window_pauses(
    report: dict[str, Any], window: tuple[float, float], column: int = 2
) -> list[float]:
    """The longest pause of each generation that began inside ``window`` (monotonic
    seconds, shared by every process on the machine), in ms; 0 where none did. By
    the clock; ``column`` 3: in the server's CPU time (door/gc_watch.py)."""
    longest = [0.0, 0.0, 0.0]
    for pause in report.get("pauses", []):
        began, generation = pause[0], pause[1]
        if window[0] <= began <= window[1]:
            longest[generation] = max(longest[generation], pause[column])
    return longest


async def measure(args: argparse.Namespace, telnet: int, ssh: int, server: Server) -> Figures:
    pid = server.process.pid
    rss_idle = tree_rss_kib(pid)
    callers = telnet + ssh
    ramp = max(args.ramp, callers / args.connect_rate)
    start = time.monotonic()
    measure_from = start + ramp + args.settle
    until = measure_from + args.seconds
    rng = random.Random(args.seed)
    bots: list[Bot] = []
    tasks: list[asyncio.Task[None]] = []
    kinds = ["telnet"] * telnet + ["ssh"] * ssh
    rng.shuffle(kinds)
    for index, kind in enumerate(kinds):
        bot = Bot(f"Bot{index}", random.Random(rng.getrandbits(64)), args.think)
        bots.append(bot)
        run = run_telnet if kind == "telnet" else run_ssh
        port = server.telnet_port if kind == "telnet" else server.ssh_port
        tasks.append(
            asyncio.create_task(run(bot, port, source_address(index), until, measure_from))
        )
        await asyncio.sleep(ramp / callers)  # callers arrive over the ramp, not at once
    await asyncio.sleep(max(0.0, measure_from - time.monotonic()))
    # With workers, the Redis server they share works for the door too: its CPU counts.
    helpers = [server.redis.pid] if server.redis is not None else []
    cpu_before, generator_before, wall_before = (
        tree_cpu_seconds(pid) + sum(map(cpu_seconds, helpers)),
        time.process_time(),
        time.monotonic(),
    )
    counts_before = await asyncio.to_thread(door_counts, server.metrics_port)
    scraping = (
        asyncio.create_task(scrape_metrics(server.metrics_port, args.scrape_every, until))
        if args.metrics
        else None
    )
    if args.full_gc:
        # Half-way through: the server runs a full collection, timed (door/gc_watch.py).
        await asyncio.sleep(max(0.0, measure_from + args.seconds / 2 - time.monotonic()))
        os.kill(pid, signal.SIGUSR2)
    await asyncio.sleep(max(0.0, until - time.monotonic()))
    cpu_used = tree_cpu_seconds(pid) + sum(map(cpu_seconds, helpers)) - cpu_before
    generator_used = time.process_time() - generator_before
    wall = time.monotonic() - wall_before
    rss_loaded = tree_rss_kib(pid)
    counts_after = await asyncio.to_thread(door_counts, server.metrics_port)
    if scraping is not None:
        await scraping
    results = await asyncio.gather(*tasks, return_exceptions=True)
    problems = [
        f"{type(error).__name__}: {error}" for error in results if isinstance(error, BaseException)
    ]
    problems += [bot.failed for bot in bots if bot.failed]
    problems += [f"no answer to {what}" for bot in bots for what in bot.unanswered]
    latencies = sorted(
        [latency for bot in bots for latency in bot.latencies]
        + [KEY_TIMEOUT] * sum(bot.failures for bot in bots)
    )
    keys = len(latencies)
    answered = keys - sum(bot.failures for bot in bots)
    sign_ins = sorted(bot.signed_in for bot in bots if bot.signed_in is not None)
    key_bytes = [size for bot in bots for size in bot.key_bytes]
    bar_lags = sorted(lag for bot in bots for lag in bot.bar_lags)
    counted = {name: counts_after[name] - counts_before[name] for name in counts_after}
    bar_skipped_share = None
    if _SKIPPED in counted:  # (a door from before the bar followed the key does not say)
        worked_out, skipped = counted[_WORKED_OUT], counted[_SKIPPED]
        bar_skipped_share = skipped / max(1, worked_out + skipped)
    return Figures(
        callers=callers,
        telnet=telnet,
        ssh=ssh,
        keys=keys,
        failures=keys - answered,
        percentiles_ms={
            name: percentile(latencies, share) * 1000
            for name, share in (("p50", 0.5), ("p95", 0.95), ("p99", 0.99), ("p99.9", 0.999))
        }
        | {"max": (latencies[-1] * 1000) if latencies else float("nan")},
        keys_per_caller_second=keys / wall / callers,
        cpu_ms_per_key=cpu_used / max(1, answered) * 1000,
        server_cpu_share=cpu_used / wall,
        rss_kib_per_session=(rss_loaded - rss_idle) / callers,
        gc_max_pause_ms=None,
        sign_in_failures=callers - len(sign_ins),
        sign_in_p99_s=percentile(sign_ins, 0.99),
        generator_cpu_share=generator_used / wall,
        bytes_per_key=sum(key_bytes) / max(1, len(key_bytes)),
        problems=problems,
        window=(measure_from, until),
        bar_lag_ms={name: percentile(bar_lags, share) * 1000 for name, share in BAR_SHARES},
        bar_waits=sum(bot.bar_waits for bot in bots),
        bar_skipped_share=bar_skipped_share,
        frames_per_key=counted[_FRAMES] / max(1, answered),
        bar_ms_per_key=_per_key(counted, _BAR_SECONDS, answered),
        computer_ms_per_key=_per_key(counted, _COMPUTER_SECONDS, answered),
    )


def _per_key(counted: dict[str, float], name: str, answered: int) -> float | None:
    return counted[name] / max(1, answered) * 1000 if name in counted else None


BAR_SHARES = (("p50", 0.5), ("p99", 0.99))
_FRAMES = "cribbage_door_frames_total"
_WORKED_OUT = "cribbage_door_win_bar_updates_total"
_SKIPPED = "cribbage_door_win_bar_skipped_total"
_BAR_SECONDS = "cribbage_door_win_bar_seconds_total"
_COMPUTER_SECONDS = "cribbage_door_computer_seconds_total"


def door_counts(port: int) -> dict[str, float]:
    """The door's counts so far: frames sent to callers, win bars worked out and (from
    a door that works them out after the key) skipped."""
    url = f"http://127.0.0.1:{port}/metrics"
    with urllib.request.urlopen(url, timeout=10) as response:
        text = response.read().decode()
    values = {}
    for line in text.splitlines():
        name, _, value = line.partition(" ")
        if name in (_FRAMES, _WORKED_OUT, _SKIPPED, _BAR_SECONDS, _COMPUTER_SECONDS):
            values[name] = float(value)
    return values


async def scrape_metrics(port: int, every: float, until: float) -> None:
    """Read the door's /metrics every ``every`` seconds until ``until``, as Prometheus
    would (its default is every 15 s: this is harder on the door)."""
    url = f"http://127.0.0.1:{port}/metrics"

    def fetch() -> None:
        with urllib.request.urlopen(url, timeout=10) as response:
            response.read()

    while time.monotonic() < until:
        await asyncio.to_thread(fetch)
        await asyncio.sleep(max(0.0, min(every, until - time.monotonic())))


def run_once(args: argparse.Namespace, telnet: int, ssh: int) -> Figures:
    server = Server(
        args.server_cpu, args.workers, args.redis_url, args.metrics, args.win_bar, args.code
    )
    try:
        server.wait_ready()
        figures = asyncio.run(measure(args, telnet, ssh, server))
    finally:
        report = server.stop()
    if report is not None:
        # Only the measured window counts: the start-up collection before gc.freeze()
        # and the ramp, when callers arrive by the hundred, are not steady play.
        in_window = window_pauses(report, figures.window)
        figures.gc_max_pause_ms = max(in_window)
        in_cpu = window_pauses(report, figures.window, column=3)
        print(
            f"server GC in the window: longest pause by generation {in_window} ms "
            f"(in CPU time {in_cpu} ms); whole run: "
            f"collections {report['collections']}, longest {report['max_pause_ms']} ms, "
            f"{report['total_ms']:.0f} ms in all",
            file=sys.stderr,
        )
    if args.keep:
        print(f"server's folder and log kept: {server.folder}", file=sys.stderr)
    else:
        shutil.rmtree(server.folder, ignore_errors=True)
    return figures


HEADER = (
    f"{'callers':>8} {'telnet':>6} {'ssh':>5} {'keys':>7} {'fail':>5} "
    f"{'p50':>7} {'p95':>7} {'p99':>7} {'p99.9':>7} {'max':>7} "
    f"{'keys/s':>6} {'cpu/key':>8} {'cpu':>5} {'KiB/ses':>7} {'gc max':>7} "
    f"{'sign-in':>7} {'B/key':>6} {'gen cpu':>7} {'bar p50':>7} {'bar p99':>7} "
    f"{'bar waits':>9} {'bar skip':>8} {'frm/key':>7} {'bar/key':>7} {'cpt/key':>7}"
)


def row(figures: Figures) -> str:
    p = figures.percentiles_ms
    gc_pause = "n/a" if figures.gc_max_pause_ms is None else f"{figures.gc_max_pause_ms:.0f}ms"
    b = figures.bar_lag_ms
    skip = "n/a" if figures.bar_skipped_share is None else f"{figures.bar_skipped_share:.1%}"
    return (
        f"{figures.callers:>8} {figures.telnet:>6} {figures.ssh:>5} {figures.keys:>7} "
        f"{figures.failures:>5} {p['p50']:>5.1f}ms {p['p95']:>5.1f}ms {p['p99']:>5.1f}ms "
        f"{p['p99.9']:>5.0f}ms {p['max']:>5.0f}ms {figures.keys_per_caller_second:>6.2f} "
        f"{figures.cpu_ms_per_key:>6.2f}ms {figures.server_cpu_share:>5.0%} "
        f"{figures.rss_kib_per_session:>7.0f} {gc_pause:>7} "
        f"{figures.sign_in_failures:>4} bad {figures.bytes_per_key:>6.0f} "
        f"{figures.generator_cpu_share:>7.0%} {b['p50']:>5.0f}ms {b['p99']:>5.0f}ms "
        f"{figures.bar_waits:>9} {skip:>8} {figures.frames_per_key:>7.2f} "
        f"{_ms(figures.bar_ms_per_key):>7} {_ms(figures.computer_ms_per_key):>7}"
    )


def _ms(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.3f}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--telnet", type=int, default=200)
    parser.add_argument("--ssh", type=int, default=40)
    parser.add_argument(
        "--sweep", help="caller counts to try in turn, e.g. 100,200,400 (telnet and SSH shared)"
    )
    parser.add_argument("--ssh-share", type=float, default=1 / 6, help="SSH callers in a sweep")
    parser.add_argument("--seconds", type=float, default=60.0, help="the measured window")
    parser.add_argument("--ramp", type=float, default=10.0, help="least time to connect everyone")
    parser.add_argument("--connect-rate", type=float, default=40.0, help="callers a second")
    parser.add_argument(
        "--settle", type=float, default=10.0, help="after the ramp, before measuring"
    )
    parser.add_argument("--think", type=float, default=0.25, help="mean seconds between keys")
    parser.add_argument("--server-cpu", help="pin the server to these CPUs (taskset: 0 or 0,1)")
    parser.add_argument("--workers", type=int, default=1, help="the door's worker processes")
    parser.add_argument("--redis-url", help="Redis for --workers (default: start one)")
    parser.add_argument("--generator-cpu", type=int, help="pin this process to this CPU")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--win-bar",
        choices=("on", "off", "never"),
        help="the door's [game] win_bar (default: the shipped setting, on)",
    )
    parser.add_argument(
        "--code",
        type=Path,
        default=CHECKOUT,
        help="the checkout whose door is measured (default: this one)",
    )
    parser.add_argument(
        "--full-gc",
        action="store_true",
        help="make the server run a full collection half-way through the window, to time it",
    )
    parser.add_argument(
        "--keep", action="store_true", help="keep the server's folder (its log, its GC report)"
    )
    parser.add_argument(
        "--metrics", action="store_true", help="serve [metrics] and scrape them while measuring"
    )
    parser.add_argument(
        "--scrape-every", type=float, default=5.0, help="seconds between scrapes (--metrics)"
    )
    parser.add_argument(
        "--metrics-pairs",
        type=int,
        default=0,
        help="run the count this many times with metrics off, then on, alternating, and "
        "compare the CPU per key (the machine's other load drifts: pairs even it out)",
    )
    args = parser.parse_args()
    if args.full_gc and args.workers > 1:
        parser.error("--full-gc times one server process: not with --workers")
    if args.generator_cpu is not None:
        os.sched_setaffinity(0, {args.generator_cpu})
    counts: list[tuple[int, int]]
    if args.sweep:
        counts = []
        for total in (int(part) for part in args.sweep.split(",")):
            ssh = round(total * args.ssh_share)
            counts.append((total - ssh, ssh))
    else:
        counts = [(args.telnet, args.ssh)]
    print(
        f"Shipped settings (win_bar {args.win_bar or 'shipped'}, the door of {args.code}); "
        f"{args.seconds:.0f} s measured after a {args.ramp:.0f} s+ ramp; "
        f"think {args.think} s; server on CPU {args.server_cpu}, generator on CPU "
        f"{args.generator_cpu}; a key unanswered in {KEY_TIMEOUT:.0f} s is a failure"
    )
    if args.metrics_pairs:
        return compare_metrics(args, counts[0])
    print(HEADER, flush=True)
    best = None
    for telnet, ssh in counts:
        figures = run_once(args, telnet, ssh)
        print(row(figures), flush=True)
        for problem in sorted(set(figures.problems))[:3]:
            print(f"{'':>8} e.g. {problem}  ({figures.problems.count(problem)} callers)")
        if figures.p99_ok:
            best = max(best or 0, figures.callers)
    if len(counts) > 1:
        print(f"Largest count with p99 under {P99_TARGET_MS:.0f} ms and every sign-in: {best}")
    return 0


def compare_metrics(args: argparse.Namespace, count: tuple[int, int]) -> int:
    """``--metrics-pairs``: off then on, ``args.metrics_pairs`` times; each run's row and
    the CPU per key of each side."""
    print(f"{'metrics':>7} " + HEADER, flush=True)
    cpu: dict[bool, list[float]] = {False: [], True: []}
    for _ in range(args.metrics_pairs):
        for metrics in (False, True):
            args.metrics = metrics
            figures = run_once(args, *count)
            cpu[metrics].append(figures.cpu_ms_per_key)
            print(f"{'on' if metrics else 'off':>7} " + row(figures), flush=True)
    for metrics in (False, True):
        each = ", ".join(f"{value:.3f}" for value in cpu[metrics])
        mean = sum(cpu[metrics]) / len(cpu[metrics])
        print(f"metrics {'on' if metrics else 'off'}: CPU per key {mean:.3f} ms (each: {each})")
    ratios = [on / off for off, on in zip(cpu[False], cpu[True], strict=True)]
    print("on/off per pair: " + ", ".join(f"{ratio:.3f}" for ratio in ratios))
    return 0


if __name__ == "__main__":
    sys.exit(main())
