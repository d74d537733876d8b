"""The rules of cribbage: cards, scoring, the game's state machine, its events and records."""
