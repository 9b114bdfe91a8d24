"""The one deadline watchdog: a daemon thread that interrupts solver calls past their deadline.

The harness arms it around every solver call (:func:`armed`); a backend only says how it is
interrupted (:meth:`Backend.interrupt`). Starting a ``threading.Timer`` per call would cost a
thread start each time, as much as solving a small puzzle; this thread is started once and only
woken when a deadline arrives that is earlier than the one it sleeps until. Waking it is not
free either (the two threads hand the interpreter lock back and forth): it leaves cancelled
deadlines in its heap until they come due, so on a run of short solves, whose deadlines come
later and later, the thread sleeps until the oldest of them instead of being woken per call.
Callbacks run under the watchdog's lock, so once :meth:`Watchdog.cancel` has returned, a
callback has either run completely or will never run: an interrupt cannot land on the solver's
next call.
"""

from __future__ import annotations

import heapq
import itertools
import math
import threading
import time
from collections.abc import Callable


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
        #: When the thread wakes next by itself (infinity: only when notified).
        self._wakes_at = math.inf
        #: How often the thread was notified (a measure of the handovers it costs).
        self.notified = 0

    def schedule(self, deadline: float, callback: Callable[[], None]) -> int:
        """Call ``callback`` at ``deadline`` unless cancelled first; returns a ticket."""
        with self._cond:
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._run, name="puzzlebench-watchdog", daemon=True)
                self._wakes_at = math.inf
                self._thread.start()
            ticket = next(self._ids)
            if len(self._heap) > 64 + 2 * len(self._callbacks):  # mostly cancelled: compact
                self._heap = [entry for entry in self._heap if entry[1] in self._callbacks]
                heapq.heapify(self._heap)
            heapq.heappush(self._heap, (deadline, ticket))
            self._callbacks[ticket] = callback
            # The thread wakes by itself at the earliest deadline it saw (cancelled or not) and
            # then looks at the heap again: only an earlier deadline needs to wake it now.
            if deadline < self._wakes_at:
                self._wakes_at = deadline
                self.notified += 1
                self._cond.notify()
            return ticket

    def cancel(self, ticket: int) -> None:
        """Drop a callback; after this returns it has run completely or never will."""
        with self._cond:
            self._callbacks.pop(ticket, None)

    def _run(self) -> None:
        with self._cond:
            while True:
                now = time.perf_counter()
                # Deadlines that came due: run the callbacks still registered, drop the others.
                while self._heap and self._heap[0][0] <= now:
                    _, ticket = heapq.heappop(self._heap)
                    callback = self._callbacks.pop(ticket, None)
                    if callback is not None:
                        try:
                            callback()
                        except Exception:  # an interrupt that fails must not stop the watchdog
                            pass
                if not self._heap:
                    self._wakes_at = math.inf
                    self._cond.wait()
                    continue
                self._wakes_at = self._heap[0][0]
                self._cond.wait(self._wakes_at - now)


WATCHDOG = Watchdog()


class armed:
    """Guard one solver call: ``with armed(deadline, interrupt) as alarm: ...`` runs
    ``interrupt()`` if the call is still going at ``deadline``.

    The :class:`Alarm` it yields tells afterwards whether it fired; a call the alarm interrupted
    has an unknown outcome whatever it returned. (A class rather than a generator-based context
    manager: it guards every solver call, two per small puzzle.)
    """

    __slots__ = ("deadline", "interrupt", "alarm", "ticket")

    def __init__(self, deadline: float | None, interrupt: Callable[[], None]) -> None:
        self.deadline, self.interrupt = deadline, interrupt
        self.alarm = Alarm()
        self.ticket: int | None = None

    def _ring(self) -> None:
        self.alarm.fired = True
        self.interrupt()

    def __enter__(self) -> Alarm:
        if self.deadline is not None:
            self.ticket = WATCHDOG.schedule(self.deadline, self._ring)
        return self.alarm

    def __exit__(self, *exc: object) -> None:
        if self.ticket is not None:
            WATCHDOG.cancel(self.ticket)
