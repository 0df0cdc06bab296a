$g$.attach(*$m$);
