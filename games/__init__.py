"""Online play of Mexican Train. The rules engine lives in games.engine (no Django imports)."""
