"""A random source whose shuffles stack the deck: named cards on top, in order."""

import random
from collections.abc import MutableSequence
from typing import Any

from engine import parse_cards


class StackedRandom(random.Random):
    """Each shuffle puts the next listed cards on top; other draws are seeded."""

    def __init__(self, *orders: str, seed: int = 0) -> None:
        super().__init__(seed)
        self.orders = [parse_cards(order) for order in orders]

    def shuffle(self, x: MutableSequence[Any], *args: Any) -> None:  # type: ignore[override]
        super().shuffle(x)
        if self.orders:
            top = self.orders.pop(0)
            rest = [card for card in x if card not in top]
            x[:] = top + rest
