// Linear codes at any angle, shared by TurnedLinearLocation.cpp (where they may be) and TurnedLinear.cpp (cut
// upright and read).
#pragma once

#include "Internal.hpp"

#include <vector>

namespace cbridge::turned {

// Cells over which the structure tensor is averaged, in analysis pixels: a few modules of a code.
constexpr int cellSize = 8;

/// Where a linear code may be: its centre, its direction and its extent.
struct Candidate {
    cv::Point2d centre;  // in the read's pixels
    cv::Point2d across;  // unit vector across the bars (the code's length)
    double length = 0, height = 0;
    int cells = 0;
    // One of its ends lies on an edge of the cells beyond which the picture goes on (a region's edge inside a
    // frame): the code may go on beyond it, and a cut of what is inside holds part of it.
    bool endsAtCut = false;
};

/// Where linear codes may be, whatever their angle, in `gray`'s pixels; largest first.
std::vector<Candidate> locate(const cv::Mat &gray);

}  // namespace cbridge::turned
