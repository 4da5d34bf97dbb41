"""Conformance harness: game traces, replay against the model, live differential testing.

* :mod:`properties.conformance.trace` -- the JSON Lines trace format (read, validate, write);
* :mod:`properties.conformance.replay` -- replay a trace against the model;
* :mod:`properties.conformance.games` -- game adapters (Dawn Under with its presets);
* :mod:`properties.conformance.dracula_game` -- the Dracula adapter (hidden information, chance);
* :mod:`properties.conformance.engine` -- the engine protocol (Python and subprocess forms);
* :mod:`properties.conformance.differential` -- drive an engine and the model side by side;
* :mod:`properties.conformance.pytest_helper` -- :func:`assert_conforms` for engine test suites.

See docs/conformance.md.
"""
