// ui placeholder
