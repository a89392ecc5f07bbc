#pragma once
#define IOPDDL_VERSION "0.1.0"
