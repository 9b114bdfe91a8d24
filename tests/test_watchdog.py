"""The deadline watchdog: callbacks run at their deadlines, cancelled ones never, and a run of
short guarded calls does not wake its thread per call."""

from __future__ import annotations

import threading
import time

from puzzlebench.solvers.watchdog import Watchdog, armed


def _fired_within(event: threading.Event, seconds: float) -> bool:
    return event.wait(seconds)


def test_a_callback_runs_at_its_deadline():
    dog = Watchdog()
    rang = threading.Event()
    start = time.perf_counter()
    dog.schedule(start + 0.05, rang.set)
    assert _fired_within(rang, 5)
    assert time.perf_counter() - start >= 0.05


def test_a_cancelled_callback_never_runs():
    dog = Watchdog()
    rang = threading.Event()
    ticket = dog.schedule(time.perf_counter() + 0.05, rang.set)
    dog.cancel(ticket)
    assert not _fired_within(rang, 0.3)


def test_an_earlier_deadline_after_a_later_one_still_fires_on_time():
    dog = Watchdog()
    late, early = threading.Event(), threading.Event()
    dog.schedule(time.perf_counter() + 100, late.set)
    dog.schedule(time.perf_counter() + 0.05, early.set)
    assert _fired_within(early, 5)
    assert not late.is_set()


def test_deadlines_behind_cancelled_ones_still_fire():
    """The thread sleeps until the earliest deadline it saw, cancelled or not; a live deadline
    behind it fires once that one has passed."""
    dog = Watchdog()
    for _ in range(200):  # more than the compaction threshold
        dog.cancel(dog.schedule(time.perf_counter() + 0.05, lambda: None))
    rang = threading.Event()
    dog.schedule(time.perf_counter() + 0.2, rang.set)
    assert _fired_within(rang, 5)


def test_a_run_of_short_calls_does_not_wake_the_thread_per_call():
    """Each solve's deadline comes later than the one before: once the thread sleeps until the
    first of them, scheduling and cancelling the rest must not notify it (each notification is
    a hand-over of the interpreter lock, which cost as much as solving a small puzzle)."""
    dog = Watchdog()
    for _ in range(500):
        dog.cancel(dog.schedule(time.perf_counter() + 60, lambda: None))
    assert dog.notified <= 2


def test_armed_tells_whether_the_alarm_fired():
    interrupted = threading.Event()
    with armed(time.perf_counter() + 0.05, interrupted.set) as alarm:
        assert _fired_within(interrupted, 5)
    assert alarm.fired
    with armed(time.perf_counter() + 60, interrupted.clear) as alarm:
        pass
    assert not alarm.fired and interrupted.is_set()
