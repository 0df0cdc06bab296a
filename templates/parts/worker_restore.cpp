if (items.resumes($entry$, j)) run_.handoffs[$h$].restore($m$.actor, j);
