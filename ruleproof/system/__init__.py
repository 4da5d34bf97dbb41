"""What ruleproof asks of the operating system, in one place (a layer just above
``ruleproof.errors``, below the specs, models and checks, so that every layer may use it):

* :mod:`ruleproof.system.outputs`: every file the tool writes (checkpoints, traces,
  witnesses, pages, plots, generated documents) is written to a unique temporary file in the
  target's folder, synced, then renamed over the target; only a regular file is ever
  replaced, and a run holds a lock on each output for as long as it runs.
* :mod:`ruleproof.system.processes`: the processes a run starts (worker pools, engines, a
  local Ray) carry a mark in their environment, so that an interrupted run can stop every
  one of them; a watcher process stops a local Ray's processes even when the run itself is
  killed.
"""
