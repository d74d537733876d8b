"""Competition between members, as pure values and functions: matches scored in game
points, Glicko-2 ratings, round-robin and Swiss tournaments, play-by-mail clocks and the
turn timer. No asyncio, no Terminal, no database: the lobby and the table feed these
values game outcomes and moments, and the store keeps them (door/storage/ratings.py,
matches.py, tournaments.py, pbm_games.py)."""
