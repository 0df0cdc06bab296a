[&] {
      cycles();
      link.close();
    }