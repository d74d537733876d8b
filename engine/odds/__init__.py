"""What hands, cribs and positions are worth: exact expectations and the chance to win."""
