"""What people look at: terminal sheets and tables, plots; later replays and printable sheets."""
