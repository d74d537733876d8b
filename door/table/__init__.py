"""A cribbage table: game options, seats, the table's flow, the computer at the table."""
