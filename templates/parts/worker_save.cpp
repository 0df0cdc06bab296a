if (items.suspends($entry$, j)) run_.handoffs[$h$].save($m$.actor, j + 1);
