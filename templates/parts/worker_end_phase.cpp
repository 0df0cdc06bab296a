run_.end_phase();  // the end of transfer step $phase$
