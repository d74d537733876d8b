"""The computer player, its coach and self-play, built on the rules and the odds."""
