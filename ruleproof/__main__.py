"""``python -m ruleproof``: the same command line as the ``ruleproof`` script."""

from ruleproof.cli import main

if __name__ == "__main__":
    main()
