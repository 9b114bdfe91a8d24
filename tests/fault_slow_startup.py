"""A plugin whose import takes :data:`DELAY` seconds: a worker's slow start-up (interpreter,
imports), which the runner must measure apart and not count against the run's limit."""

import time

DELAY = 1.5
time.sleep(DELAY)
