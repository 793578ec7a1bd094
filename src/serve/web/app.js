// Placeholder: the page's script replaces this file.
"use strict";
