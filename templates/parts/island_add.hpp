island_.add($member$, "$label$");
