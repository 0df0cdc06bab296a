$port$.resize(port_$port$_.finish(island_.name(), j));
