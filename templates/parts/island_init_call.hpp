$ident$_.init($ctx$);
