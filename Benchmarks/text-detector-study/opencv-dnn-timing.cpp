#include <opencv2/dnn.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>
#include <chrono>
#include <iostream>
int main(int argc, char **argv) {
    try {
        if (argc > 5) cv::setNumThreads(atoi(argv[5]));
        cv::dnn::Net net = cv::dnn::readNetFromONNX(argv[1]);
        cv::Mat img = cv::imread(argv[2]);
        int w = atoi(argv[3]), h = atoi(argv[4]);
        cv::Mat blob = cv::dnn::blobFromImage(img, 1 / 127.5, cv::Size(w, h), cv::Scalar(127.5, 127.5, 127.5), false);
        std::vector<double> ts;
        cv::Mat out;
        for (int i = 0; i < 7; ++i) {
            auto t = std::chrono::steady_clock::now();
            net.setInput(blob);
            out = net.forward();
            ts.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t).count());
        }
        std::sort(ts.begin(), ts.end());
        std::cout << "dims " << out.dims << " " << out.size[0] << "x" << out.size[1] << "x" << out.size[2] << "x" << out.size[3]
                  << " median ms " << ts[3] << " min " << ts[0] << "\n";
        cv::Mat prob(out.size[2], out.size[3], CV_32F, out.ptr<float>());
        double mn, mx; cv::minMaxLoc(prob, &mn, &mx); std::cout << "prob range " << mn << " " << mx << " mean " << cv::mean(prob)[0] << "\n";
        cv::imwrite("/tmp/td/cv/prob.png", prob * 255);
    } catch (const std::exception &e) { std::cerr << "ERR " << e.what() << "\n"; return 1; }
}
