"""The one deadline watchdog: a daemon thread that interrupts solver calls past their deadline.

The harness arms it around every solver call (:func:`armed`); a backend only says how it is
interrupted (:meth:`Backend.interrupt`). Starting a ``threading.Timer`` per call would cost a
thread start each time, as much as solving a small puzzle; this thread is started once and only
woken when a new earliest deadline arrives. Callbacks run under the watchdog's lock, so once
:meth:`Watchdog.cancel` has returned, a callback has either run completely or will never run:
an interrupt cannot land on the solver's next call.
"""

from __future__ import annotations

import heapq
import itertools
import threading
import time
from contextlib import contextmanager
from typing import Callable, Iterator


class Alarm:
    """What :func:`armed` yields: whether the deadline fired during the guarded call."""

    __slots__ = ("fired",)

    def __init__(self) -> None:
        self.fired = False


class Watchdog:
    """One daemon thread that calls registered callbacks at their deadlines (``perf_counter``)."""

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._heap: list[tuple[float, int]] = []
        self._callbacks: dict[int, Callable[[], None]] = {}
        self._ids = itertools.count()
        self._thread: threading.Thread | None = None

    def schedule(self, deadline: float, callback: Callable[[], None]) -> int:
        """Call ``callback`` at ``deadline`` unless cancelled first; returns a ticket."""
        with self._cond:
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._run, name="puzzlebench-watchdog", daemon=True)
                self._thread.start()
            ticket = next(self._ids)
            if len(self._heap) > 64 + 2 * len(self._callbacks):  # mostly cancelled: compact
                self._heap = [entry for entry in self._heap if entry[1] in self._callbacks]
                heapq.heapify(self._heap)
            # The thread sleeps until the earliest deadline in the heap (cancelled ones too, which
            # it drops when it wakes): only a new earliest deadline needs to wake it now.
            wake = not self._heap or deadline < self._heap[0][0]
            heapq.heappush(self._heap, (deadline, ticket))
            self._callbacks[ticket] = callback
            if wake:
                self._cond.notify()
            return ticket

    def cancel(self, ticket: int) -> None:
        """Drop a callback; after this returns it has run completely or never will."""
        with self._cond:
            self._callbacks.pop(ticket, None)

    def _run(self) -> None:
        with self._cond:
            while True:
                while self._heap and self._heap[0][1] not in self._callbacks:
                    heapq.heappop(self._heap)
                if not self._heap:
                    self._cond.wait()
                    continue
                deadline, ticket = self._heap[0]
                wait = deadline - time.perf_counter()
                if wait > 0:
                    self._cond.wait(wait)
                    continue
                heapq.heappop(self._heap)
                callback = self._callbacks.pop(ticket)
                try:
                    callback()
                except Exception:  # an interrupt that fails must not stop the watchdog
                    pass


WATCHDOG = Watchdog()


@contextmanager
def armed(deadline: float | None, interrupt: Callable[[], None]) -> Iterator[Alarm]:
    """Guard one solver call: ``interrupt()`` runs if it is still going at ``deadline``.

    The yielded :class:`Alarm` tells afterwards whether it fired; a call the alarm interrupted
    has an unknown outcome whatever it returned.
    """
    alarm = Alarm()
    if deadline is None:
        yield alarm
        return

    def ring() -> None:
        alarm.fired = True
        interrupt()

    ticket = WATCHDOG.schedule(deadline, ring)
    try:
        yield alarm
    finally:
        WATCHDOG.cancel(ticket)
