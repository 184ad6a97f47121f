"""Sound for the table: the list of sound events, the player, the SDL audio probe."""
