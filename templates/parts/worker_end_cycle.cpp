items.end_cycle(c);
