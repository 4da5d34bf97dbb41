"""Liar's Dice: its plugin record and capabilities (properties/liars_dice/plugin.py)."""
