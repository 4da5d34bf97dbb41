"""Conformance harness: game traces, replay against the model, live differential testing.

* :mod:`ruleproof.properties.conformance.trace` -- the JSON Lines trace format (read, validate, write);
* :mod:`ruleproof.properties.conformance.replay` -- replay a trace against the model;
* :mod:`ruleproof.properties.conformance.games` -- game adapters (Dawn Under with its presets);
* :mod:`ruleproof.properties.conformance.dracula_game` -- the Dracula adapter (hidden information, chance);
* :mod:`ruleproof.properties.conformance.engine` -- the engine protocol (Python and subprocess forms);
* :mod:`ruleproof.properties.conformance.differential` -- drive an engine and the model side by side;
* :mod:`ruleproof.properties.conformance.pytest_helper` -- :func:`assert_conforms` for engine test suites.

See docs/conformance.md.
"""
