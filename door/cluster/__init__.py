"""Many processes, one door: workers, and what they share through Redis."""
