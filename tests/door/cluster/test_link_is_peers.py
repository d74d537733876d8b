"""Presence names what it needs of the other workers (``Peers``) without importing the
cluster; the cluster's link must still provide every part of it, with the same calls."""

from __future__ import annotations

import inspect

from door.app.presence import Peers
from door.cluster.link import ClusterLink


def test_the_cluster_link_provides_everything_presence_asks_of_its_peers() -> None:
    wanted = {
        name: member
        for name, member in vars(Peers).items()
        if not name.startswith("_") and callable(member)
    }
    assert wanted  # the protocol's methods are seen at all
    for name, member in wanted.items():
        provided = getattr(ClusterLink, name, None)
        assert provided is not None, f"ClusterLink has no {name}"
        assert list(inspect.signature(provided).parameters) == list(
            inspect.signature(member).parameters
        ), name
        assert inspect.iscoroutinefunction(provided) == inspect.iscoroutinefunction(member), name
    link_attributes = inspect.getsource(ClusterLink.__init__)
    for attribute in Peers.__annotations__:
        assert f"self.{attribute}" in link_attributes, f"ClusterLink sets no {attribute}"
