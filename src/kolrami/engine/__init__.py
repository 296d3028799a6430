"""The battle engine: chance, geometry, state, orders, events and the turn driver."""
