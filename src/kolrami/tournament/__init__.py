"""The tournament manager: organized-play rules, pairing, byes, standings, a store, simulations."""
