"""Conformance harness: game traces, replay against the model, live differential testing.

* :mod:`ruleproof.properties.conformance.trace` -- the JSON Lines trace format (read, validate, write);
* :mod:`ruleproof.properties.conformance.replay` -- replay a trace against the model;
* :mod:`ruleproof.properties.conformance.games` -- a game as the harness sees it: the game interface,
  the plugin record and the game's ``conformance`` capability (``properties/<game>/conformance.py``);
* :mod:`ruleproof.properties.conformance.shrink` -- delta debugging (a game's hidden deal: its ``shrink``
  capability, ``properties/<game>/shrink.py``);
* :mod:`ruleproof.properties.conformance.engine` -- the engine protocol (Python and subprocess forms);
* :mod:`ruleproof.properties.conformance.differential` -- drive an engine and the model side by side;
* :mod:`ruleproof.properties.conformance.pytest_helper` -- :func:`assert_conforms` for engine test suites.

See docs/conformance.md.
"""
